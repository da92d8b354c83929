// The languages of the portal: every text is complete in each (locales/<lang>/), the browser offers
// them, the server answers in them. The one list; everything else imports it.
export const LANGUAGES = ['en', 'es', 'pt', 'vi'] as const;
export type Language = (typeof LANGUAGES)[number];
