import { CenteredMessage } from "@/components/shell/centered-message";

export default function Forbidden() {
  return (
    <CenteredMessage code="403" title="Not available to your role">
      Your account cannot open this page. If you think it should, ask your study lead.
    </CenteredMessage>
  );
}
