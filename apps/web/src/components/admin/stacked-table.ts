/**
 * Class names for an admin table that stacks below 768 px: each row becomes a card and each
 * cell shows its column name (from `data-label`) beside its value, so a 375 px screen needs
 * no sideways scrolling. Give every <td> a `data-label`.
 */
export const STACKED = {
  table: 'w-full text-sm max-md:block',
  head: 'text-left text-muted max-md:sr-only',
  headCell: 'px-3 py-2 font-medium',
  body: 'max-md:block max-md:space-y-3',
  row: 'border-t border-border align-top max-md:block max-md:rounded-lg max-md:border max-md:p-3',
  cell:
    'px-3 py-3 max-md:flex max-md:items-start max-md:justify-between max-md:gap-4 max-md:px-0 max-md:py-1.5 ' +
    'max-md:before:shrink-0 max-md:before:font-medium max-md:before:text-muted max-md:before:content-[attr(data-label)]',
  /** A cell whose content (an edit form, a button row) takes the card's full width. */
  wideCell: 'px-3 py-3 max-md:block max-md:px-0 max-md:py-1.5',
} as const;
