import { Button } from '@web/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@web/components/ui/dialog';

/** "Reset to Defaults?": what a reset does, before the step-up asks to confirm it. */
export function ResetSettingsDialog({
  open,
  onOpenChange,
  onReset,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onReset: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Reset to Defaults?"
        description="Every setting goes back to its default value, for every customer: at once, except the risk settings, which wait for another admin's approval. The change is recorded in the audit log."
      >
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="danger" onClick={onReset}>
            Reset to Defaults
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
