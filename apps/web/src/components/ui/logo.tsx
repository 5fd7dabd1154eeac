import { cn } from '@web/lib/cn';

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold text-fg', className)}>
      <img src="/favicon.svg" alt="" className="h-7 w-7" />
      <span className="text-lg tracking-tight">Coffer</span>
    </span>
  );
}
