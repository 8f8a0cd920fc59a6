// /app/_demo/scroll: 40 items to check scrolling under the fixed header and bottom navigation.
import { sk } from '../text/sk.ts';

export const DEMO_ITEMS = 40;

export function DemoScrollPage() {
  return (
    <section className="p-4">
      <h1 className="mb-3 text-xl font-semibold">{sk.demo.title}</h1>
      <ul className="flex flex-col gap-2">
        {Array.from({ length: DEMO_ITEMS }, (_, i) => (
          <li key={i} className="card px-4 py-3">
            {sk.demo.item(i + 1)}
          </li>
        ))}
      </ul>
    </section>
  );
}
