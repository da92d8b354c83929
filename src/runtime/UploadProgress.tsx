// The progress of a file upload (spec 4), shown while the upload runs. Loaded when a first upload
// starts (see ScreenRenderer.tsx).
import { Progress } from '@chakra-ui/react';
import { useRuntimeT } from './i18n';

export default function UploadProgress({ pct }: { pct: number }) {
  const { t } = useRuntimeT();
  return (
    <Progress.Root value={pct} max={100} aria-label={t('runtime:uploading')}>
      <Progress.Label>{t('runtime:uploadProgress', { pct })}</Progress.Label>
      <Progress.Track>
        <Progress.Range />
      </Progress.Track>
    </Progress.Root>
  );
}
