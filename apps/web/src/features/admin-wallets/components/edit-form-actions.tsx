import { Button } from '@web/components/ui/button';

/** Save and Cancel under an inline edit form; both wait while the save is under way. */
export function EditFormActions({
  saveText,
  pending,
  onCancel,
}: {
  saveText: string;
  pending: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="flex gap-2">
      <Button type="submit" size="sm" disabled={pending}>
        {pending ? 'Saving...' : saveText}
      </Button>
      <Button variant="outline" size="sm" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
    </div>
  );
}
