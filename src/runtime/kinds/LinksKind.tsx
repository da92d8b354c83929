// links: a list of links or menu tiles (home sections). Options: variant (list | tiles), items
// [{label (key), description (key), to (route; '<this screen's path>#<section id>' links to a section of the page), query (bindings), href (external binding), icon
// (image URL), show, effect}].
import { Box, Card, Heading, LinkBox, LinkOverlay, List, SimpleGrid, Text, chakra } from '@chakra-ui/react';
import { Link as RouteLink } from 'wouter';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import { toSearch } from '../search';
import type { KindProps } from '../kindProps';
import type { Effect } from '../../engine/types';
import { resolveItem } from './shared';

interface LinkItem {
  label: string;
  description?: string;
  to?: string;
  query?: Record<string, unknown>;
  href?: string;
  icon?: string;
  visible?: boolean;
  effect?: Effect;
}

function ItemLink({ item, children }: { item: LinkItem; children: React.ReactNode }) {
  const rt = useScreenRuntime();
  const hash = item.to ? item.to.indexOf('#') : -1;
  if (item.to && hash >= 0 && rt.screen.path === item.to.slice(0, hash)) {
    // a part of this same page (its section's id): the browser scrolls to it and moves the focus
    return <LinkOverlay href={`#section-${item.to.slice(hash + 1)}`}>{children}</LinkOverlay>;
  }
  if (item.to) {
    return (
      <RouteLink href={`${item.to}${toSearch(item.query ?? {})}`} asChild>
        <LinkOverlay>{children}</LinkOverlay>
      </RouteLink>
    );
  }
  if (item.href) {
    return (
      <LinkOverlay href={item.href} target="_blank" rel="noopener noreferrer">
        {children}
      </LinkOverlay>
    );
  }
  if (item.effect) {
    return (
      <LinkOverlay asChild>
        <chakra.button type="button" textAlign="start" textDecoration="underline" onClick={() => void rt.runEffect(item.effect!).catch(() => undefined)}>
          {children}
        </chakra.button>
      </LinkOverlay>
    );
  }
  return <>{children}</>;
}

export default function LinksKind({ section, data }: KindProps<'links'>) {
  const rt = useScreenRuntime();
  const { tk } = useRuntimeT();
  const rawItems = section.items;
  const items = resolveItem<LinkItem[]>(rt, rawItems, data)
    // effects keep their bindings (run with the screen context)
    .map((it, i) => ({ ...it, effect: rawItems[i]?.effect }))
    .filter((i) => i.visible !== false);

  if (section.variant === 'tiles') {
    return (
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="4" as="ul" listStyleType="none" className="pp-tiles">
        {items.map((it, i) => (
          <chakra.li key={i}>
            <Card.Root position="relative" height="full" _hover={{ borderColor: 'brand.solid' }} variant="outline">
              <Card.Body gap="2">
                {it.icon ? <chakra.img src={it.icon} alt="" width="10" height="10" /> : null}
                <Heading as="h3" size="sm">
                  <ItemLink item={it}>{tk(it.label)}</ItemLink>
                </Heading>
                {it.description ? <Text color="fg.muted">{tk(it.description)}</Text> : null}
              </Card.Body>
            </Card.Root>
          </chakra.li>
        ))}
      </SimpleGrid>
    );
  }
  return (
    <List.Root gap="2" className="pp-links" ps="0" listStyleType="none">
      {items.map((it, i) => (
        <List.Item key={i}>
          <LinkBox as={Box}>
            <ItemLink item={it}>{tk(it.label)}</ItemLink>
            {it.description ? <Text color="fg.muted">{tk(it.description)}</Text> : null}
          </LinkBox>
        </List.Item>
      ))}
    </List.Root>
  );
}
