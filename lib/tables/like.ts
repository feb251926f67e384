/** LIKE pattern for a literal substring: the user's %, _ and \ match themselves (backslash is PostgreSQL's default LIKE escape). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
