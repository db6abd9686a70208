import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { renderWithProviders } from "@/test/render";

import { Button } from "./button";
import { Dialog } from "./dialog";
import { useLazyDialog } from "./lazy-dialog";

/*
 * A lazily loaded dialog opens on the first press whatever the machine's speed (issue 32): its code is asked for as
 * soon as its trigger mounts, and a press that comes before the code is kept (the trigger busy) and opens the dialog
 * when the code arrives.
 */

type Props = { open: boolean; onOpenChange: (open: boolean) => void };

function Loaded({ open, onOpenChange }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Probe dialog">
      <p>Its body</p>
    </Dialog>
  );
}

function Probe({ load }: { load: () => Promise<(props: Props) => React.ReactNode> }) {
  const dialog = useLazyDialog(load);
  const Shown = dialog.Dialog;
  return (
    <>
      <Button {...dialog.trigger}>Open the probe</Button>
      {Shown ? <Shown open={dialog.open} onOpenChange={dialog.setOpen} /> : null}
    </>
  );
}

describe("useLazyDialog", () => {
  it("asks for the dialog's code when its trigger mounts, before any press", async () => {
    const load = vi.fn(() => Promise.resolve(Loaded));
    renderWithProviders(<Probe load={load} />);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
  });

  it("keeps a press made before the code arrives: busy meanwhile, then open", async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = vi.fn(() => gate.then(() => Loaded));
    const { user } = renderWithProviders(<Probe load={load} />);
    const trigger = screen.getByRole("button", { name: "Open the probe" });
    await user.click(trigger);
    expect(trigger).toHaveAttribute("aria-busy", "true");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole("dialog", { name: "Probe dialog" })).toBeVisible();
    expect(trigger).not.toHaveAttribute("aria-busy");
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("keeps focus on a trigger pressed before the code arrives, and gives it back when the dialog closes", async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { user } = renderWithProviders(<Probe load={() => gate.then(() => Loaded)} />);
    const trigger = screen.getByRole("button", { name: "Open the probe" });
    await user.click(trigger);
    // Busy, still enabled and focused: a disabled button drops focus, and the dialog would give it back to nothing.
    expect(trigger).toBeEnabled();
    expect(trigger).toHaveFocus();
    release();
    expect(await screen.findByRole("dialog", { name: "Probe dialog" })).toBeVisible();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();
  });
});
