// The progress kind has no options: steps and labels come from the screen's `flow`.
export const progressOptions = { title: 'ProgressOptions', type: 'object', properties: {} } as const;
