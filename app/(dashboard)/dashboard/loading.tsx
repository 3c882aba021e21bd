import { Panel } from '@/app/_kit/Panel';
import { LoadingState } from '@/app/_kit/states';

export default function Loading() {
  return (
    <Panel>
      <LoadingState label="Loading the page…" rows={8} />
    </Panel>
  );
}
