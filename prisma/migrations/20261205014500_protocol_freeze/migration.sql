-- CreateTable
CREATE TABLE "StudyProtocol" (
    "studyId" UUID NOT NULL,
    "canonical" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "frozenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "frozenById" UUID NOT NULL,

    CONSTRAINT "StudyProtocol_pkey" PRIMARY KEY ("studyId")
);

-- CreateTable
CREATE TABLE "ProtocolAmendment" (
    "id" UUID NOT NULL,
    "studyId" UUID NOT NULL,
    "fields" TEXT[],
    "before" JSONB NOT NULL,
    "after" JSONB NOT NULL,
    "reason" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "byId" UUID NOT NULL,

    CONSTRAINT "ProtocolAmendment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProtocolAmendment_studyId_at_idx" ON "ProtocolAmendment"("studyId", "at");

-- AddForeignKey
ALTER TABLE "StudyProtocol" ADD CONSTRAINT "StudyProtocol_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyProtocol" ADD CONSTRAINT "StudyProtocol_frozenById_fkey" FOREIGN KEY ("frozenById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProtocolAmendment" ADD CONSTRAINT "ProtocolAmendment_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProtocolAmendment" ADD CONSTRAINT "ProtocolAmendment_byId_fkey" FOREIGN KEY ("byId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
