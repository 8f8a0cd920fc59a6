// /admin/tests ('Test Runner – Admin'): one suite at a time through the test-runner function, the
// runs newest first, progress lines after 1 s, and Copy All Results.
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { admin } from '../../text/admin.ts';
import { messageOf } from '../lib/errors.ts';
import { invokeFunction } from '../lib/functions.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { TestRunCard } from './TestRunCard.tsx';
import { failRun, finishRun, formatRuns, PROGRESS_DELAY_MS, readSummary, startRun, withProgress, type RunnerReply, type TestRun, type TestType } from './test-runs.ts';

export function TestRunnerPage() {
  useEffect(() => {
    document.title = admin.tests.title;
  }, []);
  const [runs, setRuns] = useState<TestRun[]>([]);
  const [running, setRunning] = useState(false);
  const busy = useRef(false);

  const update = (id: string, change: (r: TestRun) => TestRun) => setRuns((list) => list.map((r) => (r.id === id ? change(r) : r)));

  const run = async (type: TestType) => {
    if (busy.current) return;
    busy.current = true;
    setRunning(true);
    const record = startRun(type, new Date());
    setRuns((list) => [record, ...list]);
    const timer = setTimeout(() => update(record.id, withProgress), PROGRESS_DELAY_MS);
    try {
      const reply = await invokeFunction<RunnerReply>('test-runner', { testType: type, testId: record.id });
      clearTimeout(timer);
      const ended = new Date();
      update(record.id, (r) => finishRun(r, reply, ended));
      const s = readSummary(reply.summary);
      // 'All N tests passed' only when every one ran and passed; not-configured checks are named apart.
      if (reply.success === true && s.notConfigured > 0) toast.info(admin.tests.notConfiguredTitle, { description: admin.tests.notConfiguredText(s.passed, s.notConfigured, s.total) });
      else if (reply.success === true) toast.success(admin.tests.passedTitle, { description: admin.tests.passedText(s.total) });
      else toast.error(admin.tests.failedTitle, { description: admin.tests.failedText(s.failed, s.total) });
    } catch (err) {
      clearTimeout(timer);
      const message = messageOf(err);
      update(record.id, (r) => failRun(r, message, new Date()));
      toast.error(admin.tests.execFailed, { description: admin.tests.execFailedText(type, message) });
    } finally {
      busy.current = false;
      setRunning(false);
    }
  };

  const copyAll = async () => {
    if (runs.length === 0) {
      toast.error(admin.tests.noResults, { description: admin.tests.noResultsText });
      return;
    }
    try {
      await navigator.clipboard.writeText(formatRuns(runs));
      toast.success(admin.tests.copied, { description: admin.tests.copiedText });
    } catch (err) {
      console.error('clipboard:', err);
      toast.error(admin.tests.copyFailed, { description: admin.tests.copyFailedText });
    }
  };

  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">{admin.tests.title}</h2>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" disabled={running} onClick={() => void run('unit')}>
          {admin.tests.unit}
        </Button>
        <Button variant="primary" disabled={running} onClick={() => void run('e2e')}>
          {admin.tests.e2e}
        </Button>
        <Button variant="primary" disabled={running} onClick={() => void run('edge')}>
          {admin.tests.edge}
        </Button>
      </div>
      <Card title={admin.tests.results} actions={<Button onClick={() => void copyAll()}>{admin.tests.copyAll}</Button>}>
        {runs.length === 0 ? (
          <p className="text-sm text-slate-600">{admin.tests.noRuns}</p>
        ) : (
          <ul className="flex max-h-[40rem] flex-col gap-2 overflow-y-auto">
            {runs.map((r) => (
              <TestRunCard key={r.id} run={r} />
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
