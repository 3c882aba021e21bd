import { redirect } from 'next/navigation';
import { homeFor, requireViewer } from '../_lib/viewer';

export default async function DashboardHome() {
  redirect(homeFor(await requireViewer('/dashboard')));
}
