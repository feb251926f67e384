-- CreateTable
CREATE TABLE "OidcIdentity" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastLoginAt" TIMESTAMPTZ(3),

    CONSTRAINT "OidcIdentity_pkey" PRIMARY KEY ("issuer","subject")
);

-- CreateIndex
CREATE UNIQUE INDEX "OidcIdentity_userId_issuer_key" ON "OidcIdentity"("userId", "issuer");

-- AddForeignKey
ALTER TABLE "OidcIdentity" ADD CONSTRAINT "OidcIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
