// Chakra's recipes outside the first paint (theme.ts); a chunk of its own, loaded on first need.
export { recipes, slotRecipes } from '@chakra-ui/react/theme';
