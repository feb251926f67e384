// The [assignmentId] layout refuses someone else's assignment above the page: its 404 lands here.
import { AssignmentNotFound } from "@/components/grading/assignment-not-found";

export default AssignmentNotFound;
