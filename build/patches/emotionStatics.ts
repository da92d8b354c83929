// Emotion imports hoist-non-react-statics (and with it react-is) for its side effects only, so they
// stayed in the first load though nothing calls them; they have none (CommonJS, no globals). The
// bundler is told so (rolldown's treeshake.moduleSideEffects). The guard checks the version the
// statement was made for.
import { guarded, type LibraryPatch } from './guard';

export const emotionStatics: LibraryPatch = {
  name: 'emotionStatics',
  library: 'hoist-non-react-statics',
  version: '3.3.2',
  plugin: () => guarded(emotionStatics, 0, () => ({ name: 'patch-emotion-statics' })),
};

/** rolldown's treeshake option of the build. */
export const treeshake = { moduleSideEffects: [{ test: /node_modules[\\/](hoist-non-react-statics|react-is)[\\/]/, sideEffects: false }] };
