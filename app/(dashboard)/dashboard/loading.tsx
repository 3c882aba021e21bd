import styles from '../_components/dash.module.css';
import { LoadingState } from '../_components/states';

export default function Loading() {
  return (
    <div className={styles.panel}>
      <LoadingState label="Loading the page…" rows={8} />
    </div>
  );
}
