import { AssignmentNotFound } from "@/components/grading/assignment-not-found";

export default AssignmentNotFound;
