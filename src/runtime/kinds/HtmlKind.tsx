// html: HTML the server sanitised (program alerts, bulletins, custom texts). Only data fields are ever
// rendered as HTML, never declaration text. Options: field (the HTML field of the data or of each
// item when the data is a list).
import { Box, Stack } from '@chakra-ui/react';
import type { KindProps } from '../kindProps';
import { fieldOf } from '../guards';

function htmlOf(v: unknown, field: string | undefined): string {
  if (field && v && typeof v === 'object') return String(fieldOf(v, field) ?? '');
  return typeof v === 'string' ? v : '';
}

export default function HtmlKind({ section, data }: KindProps<'html'>) {
  const parts = (Array.isArray(data) ? data : [data]).map((d) => htmlOf(d, section.field)).filter(Boolean);
  return (
    <Stack gap="3">
      {parts.map((html, i) => (
        // sanitised by the server (sanitize-html) before it is stored or served
        <Box key={i} className="pp-html" css={{ '& a': { textDecoration: 'underline' }, '& p': { mb: 2 }, '& ul': { listStyleType: 'disc', ps: 6, mb: 2 }, '& ol': { listStyleType: 'decimal', ps: 6, mb: 2 } }} dangerouslySetInnerHTML={{ __html: html }} />
      ))}
    </Stack>
  );
}
