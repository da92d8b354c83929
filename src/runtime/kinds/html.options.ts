// Options of the html kind: the HTML field of the data (or of each item of a list) the server sanitised.
export const htmlOptions = {
  title: 'HtmlOptions',
  type: 'object',
  properties: { field: { type: 'string' } },
} as const;
