// The skeletons a section or a whole screen shows while its data or its code is on its way: what the
// section frame, the screen renderer and the lazy kinds (the full form) all draw.
// Both are memo'd: they have no props, and a screen re-renders once per answer of its loads while it
// waits (each drew every skeleton bar again).
import { memo } from 'react';
import { Skeleton, SkeletonText, Stack } from '@chakra-ui/react';

export const SectionSkeleton = memo(function SectionSkeleton() {
  return (
    <Stack gap="3" aria-hidden="true" data-state="loading">
      <Skeleton height="6" width="40%" />
      <SkeletonText noOfLines={3} />
    </Stack>
  );
});

/** A whole screen while its first loads are on their way (the layout keeps the footer below the fold). */
export const ScreenSkeleton = memo(function ScreenSkeleton() {
  return (
    <Stack gap="6" aria-hidden="true" data-state="loading">
      <SectionSkeleton />
      <SectionSkeleton />
      <SectionSkeleton />
    </Stack>
  );
});
