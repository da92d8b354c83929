// The file-type icon of spec 2.13: spreadsheets (xls, xlsx, csv), pdf, word (doc, docx), images
// (png, jpg, jpeg, gif), text (txt); any other type gets a plain document. Decorative next to the
// file's name, but the type is also given as text for screen readers.
import { Box, VisuallyHidden } from '@chakra-ui/react';
import { useRuntimeT } from '../i18n';

export type FileKind = 'spreadsheet' | 'pdf' | 'word' | 'image' | 'text' | 'file';

const BY_EXTENSION: Record<string, FileKind> = {
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  csv: 'spreadsheet',
  pdf: 'pdf',
  doc: 'word',
  docx: 'word',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  txt: 'text',
};

/** The icon kind of a document type ("pdf", ".PDF", "Supply-List.csv" all work). */
export function fileKind(type: string): FileKind {
  const ext = type.trim().toLowerCase().split('.').pop() ?? '';
  return BY_EXTENSION[ext] ?? 'file';
}

const COLOURS: Record<FileKind, string> = {
  spreadsheet: '#1d6f42',
  pdf: '#b3261e',
  word: '#1f4e9c',
  image: '#7b3fa0',
  text: '#4a5568',
  file: '#4a5568',
};

const LABEL: Record<FileKind, string> = { spreadsheet: 'XLS', pdf: 'PDF', word: 'DOC', image: 'IMG', text: 'TXT', file: 'FILE' };

export function FileTypeIcon({ type }: { type: string }) {
  const { t } = useRuntimeT();
  const kind = fileKind(type);
  const colour = COLOURS[kind];
  return (
    <Box flexShrink={0} data-file-kind={kind}>
      <svg width="40" height="48" viewBox="0 0 40 48" aria-hidden="true" focusable="false">
        <path d="M4 2h22l10 10v32a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2z" fill="#fff" stroke={colour} strokeWidth="2" />
        <path d="M26 2v10h10" fill="none" stroke={colour} strokeWidth="2" />
        <rect x="2" y="26" width="30" height="14" rx="2" fill={colour} />
        <text x="17" y="36.5" textAnchor="middle" fontFamily="Arial, sans-serif" fontSize="9" fontWeight="700" fill="#fff">
          {LABEL[kind]}
        </text>
      </svg>
      <VisuallyHidden>{t(`runtime:fileType.${kind}`)}</VisuallyHidden>
    </Box>
  );
}
