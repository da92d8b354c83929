// cardList: one card per item (program periods, children, contacts...). Options:
//   items: path of the list inside the data (default: the data itself)
//   search: { field, label } a search box filtering items by that field (spec 2.8)
//   card: { show, title, subtitle, description, image, imageAlt, category, badges [{text, show,
//           status}], fields [{label, value, format, show}: a value may be {key, params}, its
//           {value, format} parameters formatted], notices [{text, params, status, show}],
//           lines { items, text, params, show } (e.g. the children of a program), actions [...],
//           to + query (the title links to that route, e.g. a bulletin's details), fileType (a
//           document type: the file-type icon of spec 2.13 before the title), html (an HTML field
//           of the item the server sanitised, e.g. a message's description), entries { items, title,
//           show, fields, weekdays, lines } (sub-items with their own heading, CardEntries.tsx) }
// Bindings use $item (the card's item); lines use $item for the line and $parent for the card.
import { useDeferredValue, useId, useState } from 'react';
import { Alert, Badge, Box, Card, Heading, Input, SimpleGrid, Stack, Text, Wrap, chakra } from '@chakra-ui/react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import { ActionBar } from '../Actions';
import { formatValue, matchesSearch, type ValueFormat } from '../format';
import type { KindProps } from '../kindProps';
import type { CardLines, CardTemplate } from '../../engine/types';
import { itemActions, resolveItem, rowsOf, textOf } from './shared';
import { Link as RouteLink } from 'wouter';
import { toSearch } from '../search';
import { FileTypeIcon } from './FileTypeIcon';
import { fieldOf, isRecord } from '../guards';
import { CardEntries } from './CardEntries';
import { partialProps, useProgressiveCount } from '../progressive';

/** Program category card colours (spec 2.8). */
export const CATEGORY_PALETTES: Record<string, string> = {
  schoolYear: 'blue',
  summerCamp: 'orange',
  preschool: 'purple',
  holidayCare: 'teal',
  other: 'gray',
};

interface Part {
  visible?: boolean;
}
interface CardModel extends Part {
  title?: unknown;
  subtitle?: unknown;
  description?: unknown;
  image?: string;
  imageAlt?: string;
  category?: string;
  badges?: ({ text: string; status?: string } & Part)[];
  fields?: ({ label: string; value: unknown; format?: ValueFormat } & Part)[];
  notices?: ({ text: string; params?: Record<string, unknown>; status?: string } & Part)[];
  lines?: { items?: unknown[] };
  to?: string;
  query?: Record<string, unknown>;
  fileType?: string;
  html?: string;
}

type FormatT = (key: string) => string;

/**
 * Parameters of a text: a `{value, format}` parameter shows its value in that display format (a
 * date in the reader's language (mm/dd/yyyy in English), a date and time without midnight).
 */
function formatParams(params: Record<string, unknown> | undefined, opts: { locale: string; country?: 'US' | 'CA'; t: FormatT }): Record<string, unknown> | undefined {
  if (!params) return params;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    out[k] = isRecord(v) && typeof v.format === 'string' && 'value' in v ? formatValue(v.value, v.format as ValueFormat, opts) : v;
  }
  return out;
}

/** A `{key, params}` value with its `{value, format}` parameters formatted (a program's dates, its price from); anything else as is. */
function withFormattedParams(value: unknown, opts: { locale: string; country?: 'US' | 'CA'; t: FormatT }): unknown {
  return isRecord(value) && typeof value.key === 'string' && isRecord(value.params) ? { ...value, params: formatParams(value.params, opts) } : value;
}

interface LineModel {
  text: string;
  params?: Record<string, unknown>;
  visible?: boolean;
  parts?: { text: string; params?: Record<string, unknown>; visible?: boolean }[];
}

function Lines({ template, items, parent }: { template: CardLines; items: unknown[]; parent: unknown }) {
  const rt = useScreenRuntime();
  const { t, tk, locale } = useRuntimeT();
  const opts = { locale, country: rt.country, t };
  const lines = items
    .map((line) => resolveItem<LineModel>(rt, { text: template.text, params: template.params, show: template.show, parts: template.parts }, line, { parent }))
    .filter((l) => l.visible !== false);
  if (!lines.length) return null;
  return (
    <chakra.ul ps="5" className="pp-card-lines">
      {lines.map((l, i) => (
        <li key={i}>
          {[tk(l.text, formatParams(l.params, opts)), ...(l.parts ?? []).filter((p) => p.visible !== false).map((p) => tk(p.text, formatParams(p.params, opts)))].join(' · ')}
        </li>
      ))}
    </chakra.ul>
  );
}

export function ItemCard({ template, item, index, headingLevel = 'h3' }: { template: CardTemplate; item: unknown; index: number; headingLevel?: 'h3' | 'h4' }) {
  const rt = useScreenRuntime();
  const { t, tk, locale } = useRuntimeT();
  const { actions: rawActions, lines: rawLines, entries, ...rest } = template;
  // every hook before the hidden card's return: a card keeps its place (key) while a search or a
  // reload hands it another item, which may be shown where the last one was hidden
  const titleId = `${useId()}-title`;
  const model = resolveItem<CardModel>(rt, { ...rest, lines: rawLines ? { items: rawLines.items } : undefined }, item);
  if (model.visible === false) return null;
  const palette = CATEGORY_PALETTES[String(model.category ?? '')] ?? (model.category ? 'gray' : undefined);
  const title = textOf(model.title, tk, locale);
  return (
    <Card.Root
      as="article"
      aria-labelledby={titleId}
      variant="outline"
      borderTopWidth={palette ? '6px' : undefined}
      borderTopColor={palette ? `${palette}.solid` : undefined}
      data-category={model.category}
      data-index={index}
    >
      <Card.Body gap="3">
        <Stack direction={{ base: 'column', sm: 'row' }} gap="4" align="flex-start">
          {model.image ? <chakra.img src={model.image} alt={model.imageAlt ? tk(model.imageAlt) : ''} width="16" height="16" objectFit="contain" /> : null}
          {model.fileType !== undefined ? <FileTypeIcon type={String(model.fileType ?? '')} /> : null}
          <Box flex="1">
            <Heading as={headingLevel} size="md" id={titleId}>
              {typeof model.to === 'string' && model.to ? (
                <RouteLink href={`${model.to}${toSearch(model.query ?? {})}`} asChild>
                  <chakra.a color="fg" textDecoration="underline" _hover={{ color: 'colorPalette.fg' }}>
                    {title}
                  </chakra.a>
                </RouteLink>
              ) : (
                title
              )}
            </Heading>
            {model.subtitle ? <Text color="fg.muted">{textOf(model.subtitle, tk, locale)}</Text> : null}
          </Box>
        </Stack>
        {model.badges?.some((b) => b.visible !== false) ? (
          <Wrap gap="2">
            {model.badges
              .filter((b) => b.visible !== false)
              .map((b, i) => (
                <Badge key={i} colorPalette={b.status === 'error' ? 'red' : b.status === 'warning' ? 'orange' : 'gray'}>
                  {tk(b.text)}
                </Badge>
              ))}
          </Wrap>
        ) : null}
        {model.description ? <Text>{textOf(model.description, tk, locale)}</Text> : null}
        {typeof model.html === 'string' && model.html ? (
          // sanitised by the server (sanitize-html) before it is stored or served
          <Box className="pp-html" css={{ '& a': { textDecoration: 'underline' }, '& p': { mb: 2 }, '& ul': { listStyleType: 'disc', ps: 6, mb: 2 }, '& ol': { listStyleType: 'decimal', ps: 6, mb: 2 } }} dangerouslySetInnerHTML={{ __html: model.html }} />
        ) : null}
        {model.fields?.length ? (
          // long values (e-mail addresses) wrap inside the card instead of widening the page
          <chakra.dl display="grid" gridTemplateColumns="fit-content(50%) minmax(0, 1fr)" columnGap="4" rowGap="1" overflowWrap="anywhere">
            {model.fields
              .filter((f) => f.visible !== false)
              .map((f, i) => (
                <Box key={i} display="contents">
                  <chakra.dt fontWeight="semibold">{tk(f.label)}</chakra.dt>
                  <chakra.dd m="0">{f.format ? formatValue(f.value, f.format, { locale, country: rt.country, t }) : textOf(withFormattedParams(f.value, { locale, country: rt.country, t }), tk, locale)}</chakra.dd>
                </Box>
              ))}
          </chakra.dl>
        ) : null}
        {rawLines ? <Lines template={rawLines} items={Array.isArray(model.lines?.items) ? model.lines!.items : []} parent={item} /> : null}
        {entries ? <CardEntries decl={entries} item={item} headingLevel={headingLevel === 'h3' ? 'h4' : 'h5'} /> : null}
        {model.notices
          ?.filter((n) => n.visible !== false)
          .map((n, i) => (
            <Alert.Root key={i} status={(n.status as 'info') ?? 'info'} variant="subtle" size="sm">
              <Alert.Indicator />
              <Alert.Description>{tk(n.text, formatParams(n.params, { locale, country: rt.country, t }))}</Alert.Description>
            </Alert.Root>
          ))}
      </Card.Body>
      {rawActions?.length ? (
        <Card.Footer>
          <ActionBar actions={itemActions(rt, rawActions, { item })} extra={{ item }} about={title ? titleId : undefined} />
        </Card.Footer>
      ) : null}
    </Card.Root>
  );
}

export default function CardListKind({ section, data }: KindProps<'cardList'>) {
  const rt = useScreenRuntime();
  const { t, tk } = useRuntimeT();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const searchId = useId();
  // a card its show rule hides (an ended program) is no card: it takes no place in the grid, and a
  // search finding only hidden cards finds nothing
  const rows = rowsOf(data, section.items).filter((r) => rt.isTrue(section.card.show, { item: r }));
  const searchDecl = section.search;
  const shown = searchDecl ? rows.filter((r) => matchesSearch(fieldOf(r, searchDecl.field), deferred)) : rows;
  const count = useProgressiveCount(shown.length);
  return (
    <Stack gap="4">
      {searchDecl ? (
        <Box maxW="md">
          <chakra.label htmlFor={searchId} display="block" fontWeight="medium" mb="1">
            {tk(searchDecl.label ?? 'runtime.search')}
          </chakra.label>
          <Input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </Box>
      ) : null}
      {shown.length === 0 ? (
        <Text color="fg.muted" data-state="empty" aria-live="polite">
          {searchDecl && deferred.trim() ? t('runtime:noMatches') : section.empty ? tk(section.empty) : t('runtime:noContent')}
        </Text>
      ) : (
        <SimpleGrid columns={{ base: 1, lg: section.columns ?? 2 }} gap="4" {...partialProps(count, shown.length)}>
          {shown.slice(0, count).map((item, i) => (
            <ItemCard key={i} template={section.card} item={item} index={i} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
