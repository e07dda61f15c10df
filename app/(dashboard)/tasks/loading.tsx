// Only sections every role may read get a loading boundary: a page behind a stricter role must
// decide before streaming starts, so that `forbidden()` still sets the 403 status.
export { PageSkeleton as default } from "@/components/ui/page-skeleton";
