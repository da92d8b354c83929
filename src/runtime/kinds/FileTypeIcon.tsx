// The file-type icon of spec 2.13: spreadsheets (xls, xlsx, csv), pdf, word (doc, docx), images
// (png, jpg, jpeg, gif), text (txt); any other type gets a plain document. Decorative next to the
// file's name; the type is also given as text for screen readers.
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
    <Box flexShrink={0} data-file-kind={kind} position="relative" width="44px" height="52px" borderWidth="2px" borderColor={colour} roundedTopRight="lg" roundedBottom="sm" roundedTopLeft="sm" bg="white">
      <Box position="absolute" insetX="-1" bottom="2" bg={colour} color="white" fontSize="2xs" fontWeight="bold" textAlign="center" lineHeight="1.6" rounded="sm" aria-hidden="true">
        {LABEL[kind]}
      </Box>
      <VisuallyHidden>{t(`runtime:fileType.${kind}`)}</VisuallyHidden>
    </Box>
  );
}
