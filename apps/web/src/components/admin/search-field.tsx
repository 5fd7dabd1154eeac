import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Input } from '../ui/input';
import { Label } from '../ui/label';

/**
 * A queue's search box: what is typed is searched for once typing pauses (300 ms), trimmed;
 * when the search changes elsewhere (Back, Clear) the box shows it.
 */
export function SearchField({
  value,
  onSearch,
  placeholder,
  className,
}: {
  /** The search in force (the address's). */
  value: string;
  onSearch: (q: string) => void;
  placeholder: string;
  className?: string;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const [typed, setTyped] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setTyped(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  // The search changed elsewhere: the box shows it, unless it already does (a trailing space
  // being typed stays).
  useEffect(() => setText((t) => (t.trim() === value ? t : value)), [value]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text is the trigger
  useEffect(() => {
    if (typed !== value) onSearch(typed);
  }, [typed]);

  return (
    <div className={className}>
      <Label htmlFor={id}>Search</Label>
      <div className="relative mt-1.5">
        <Search
          className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted"
          aria-hidden
        />
        <Input
          id={id}
          type="search"
          className="pl-9"
          placeholder={placeholder}
          value={text}
          maxLength={200}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
    </div>
  );
}
