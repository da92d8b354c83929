// progress: the three-step progress bar of application flows (spec 2.11: 1 child, 2 enrol, 3 payment;
// 'fee' when the payment option is N; plural enrol label for application type 4). Steps and label
// variants come from the screen's `flow` declaration through the engine's flowProgress.
import { Box, Flex, chakra } from '@chakra-ui/react';
import { flowProgress } from '../../engine/screen';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';

export default function ProgressKind() {
  const rt = useScreenRuntime();
  const { t, tk } = useRuntimeT();
  const progress = flowProgress(rt.set, rt.screen, rt.ctx);
  if (!progress) return null;
  return (
    <Box as="nav" aria-label={t('runtime:progress.label')}>
      <Flex as="ol" listStyleType="none" p="0" m="0" gap={{ base: 1, md: 3 }} className="pp-progress">
        {progress.steps.map((s) => {
          const current = s.state === 'current';
          const done = s.state === 'done';
          return (
            <Flex as="li" key={s.step} flex="1" direction="column" align="center" gap="1" aria-current={current ? 'step' : undefined}>
              <Box height="1.5" width="full" rounded="full" bg={done || current ? 'brand.solid' : 'border'} />
              <Flex align="center" gap="2">
                <chakra.span
                  display="inline-flex"
                  alignItems="center"
                  justifyContent="center"
                  width="7"
                  height="7"
                  rounded="full"
                  fontWeight="bold"
                  borderWidth="2px"
                  borderColor={done || current ? 'brand.solid' : 'border'}
                  bg={current ? 'brand.solid' : 'transparent'}
                  color={current ? 'brand.contrast' : 'fg'}
                >
                  {s.step}
                </chakra.span>
                <chakra.span fontWeight={current ? 'bold' : 'normal'} fontSize={{ base: 'sm', md: 'md' }}>
                  {tk(s.label)}
                  <chakra.span srOnly>{` — ${t(`runtime:progress.${s.state}`)}`}</chakra.span>
                </chakra.span>
              </Flex>
            </Flex>
          );
        })}
      </Flex>
    </Box>
  );
}
