-- Specialty names are one vocabulary whatever their case: "ophthalmology" is the
-- specialty "Ophthalmology" (lib/specialties). The code has always matched them by
-- lower(name) and created them under one lock; this index makes the database itself
-- refuse a second case of a name, from any writer, and serves those lookups.
-- Prisma's schema language cannot state an index on an expression, so it lives
-- here only (tests/integration/schema-drift.test.ts knows it by name).

-- A database may already hold two cases of one name, written before the lock
-- existed: they become one specialty, the first by name in byte order, and the
-- items and graders of the others move to it.
CREATE TEMP TABLE specialty_merge ON COMMIT DROP AS
SELECT id, keep FROM (
  SELECT id, first_value(id) OVER (PARTITION BY lower(name) ORDER BY name COLLATE "C", id) AS keep FROM "Specialty"
) ranked
WHERE id <> keep;

UPDATE "QaItem" q SET "specialtyId" = m.keep FROM specialty_merge m WHERE q."specialtyId" = m.id;

INSERT INTO "UserSpecialty" ("userId", "specialtyId")
SELECT us."userId", m.keep FROM "UserSpecialty" us JOIN specialty_merge m ON m.id = us."specialtyId"
ON CONFLICT DO NOTHING;
DELETE FROM "UserSpecialty" us USING specialty_merge m WHERE us."specialtyId" = m.id;

DELETE FROM "Specialty" s USING specialty_merge m WHERE s.id = m.id;

-- CreateIndex
CREATE UNIQUE INDEX "Specialty_name_lower_key" ON "Specialty" (lower("name"));
