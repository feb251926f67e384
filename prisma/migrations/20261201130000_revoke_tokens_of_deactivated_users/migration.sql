-- Deactivating an account now revokes its API tokens (lib/users/service.ts);
-- before, they were only refused while the account stayed inactive, and came
-- back with it. The tokens of accounts deactivated before this change are
-- revoked here, each with the audit event the deactivation now writes.
WITH revoked AS (
  UPDATE "ApiToken" t SET "revokedAt" = now()
  FROM "User" u
  WHERE u.id = t."userId" AND NOT u.active AND t."revokedAt" IS NULL
  RETURNING t.id, t."userId", t.prefix, t.name
)
INSERT INTO "AuditEvent" ("actorId", action, "entityType", "entityId", before, after)
SELECT NULL, 'token.revoke', 'ApiToken', id::text,
       jsonb_build_object('userId', "userId", 'prefix', prefix, 'name', name),
       jsonb_build_object('revoked', true, 'reason', 'user.deactivate')
FROM revoked;
