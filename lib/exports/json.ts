/**
 * JSON arrays from rows of JSON text, streamed: "[", the rows separated by
 * ",\n", "]". From COPY (one JSON object per line, each line ending in LF, no
 * other LF anywhere since JSON escapes it) or from rows the app serialises.
 */
const SEP = Buffer.from(",\n");
const NL = Buffer.from("\n");

export async function* jsonLinesToArray(chunks: AsyncIterable<Buffer>): AsyncGenerator<Uint8Array | string> {
  yield "[";
  let first = true;
  let rowEnded = false; // the previous chunk ended exactly at the end of a row
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const parts: Buffer[] = [];
    if (first) parts.push(NL);
    else if (rowEnded) parts.push(SEP);
    first = false;
    rowEnded = false;
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
      parts.push(chunk.subarray(start, i));
      if (i === chunk.length - 1) rowEnded = true;
      else parts.push(SEP);
      start = i + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
    yield Buffer.concat(parts);
  }
  yield first ? "]\n" : "\n]\n";
}

/** A JSON array of values the app builds, `batch` rows per chunk. */
export async function* jsonArray(rows: AsyncIterable<unknown[]> | Iterable<unknown[]>): AsyncGenerator<string> {
  yield "[";
  let first = true;
  for await (const batch of rows) {
    if (batch.length === 0) continue;
    yield (first ? "\n" : ",\n") + batch.map((r) => JSON.stringify(r)).join(",\n");
    first = false;
  }
  yield first ? "]\n" : "\n]\n";
}
