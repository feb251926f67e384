import { CenteredMessage } from "@/components/shell/centered-message";

export default function NotFound() {
  return (
    <CenteredMessage code="404" title="Page not found">
      This page does not exist, or you do not have access to it.
    </CenteredMessage>
  );
}
