import { json, route } from "@/lib/api/route";
import { audited } from "@/lib/audit-trail/server";
import { noteSchema } from "@/lib/cases/validation";
import { addAlertNote, listAlertNotes } from "@/lib/monitoring/server/notes";
import { alertIdParams } from "@/lib/monitoring/validation";

// GET /api/monitoring/alerts/:id/notes – the alert's notes, oldest first (author, time, text; an erased or unreadable
// one without its text). Audited as a read (`monitoring.alert_note_list`): on the verification, with the change and the count, never a text.
export const GET = route({ permission: "cases.read", params: alertIdParams }, async ({ db, context, connection, params }) => {
  const { notes } = await audited(
    context,
    {
      action: "monitoring.alert_note_list",
      targetOf: (read) => ({ type: "verification", id: read.publicId }),
      detailsOf: (read) => ({ change: read.change, count: read.notes.length }),
    },
    () => listAlertNotes(db, connection.id, params.id),
  );
  return json({ notes });
});

// POST /api/monitoring/alerts/:id/notes {text} – a note on the alert, by its holder or a cases.assign holder (403
// otherwise); the case notes' rules (400 naming `text`), sealed at rest, kept with the alert's case. The trail records
// its length (`monitoring.alert_note_add`), never its text.
export const POST = route(
  { permission: "cases.work", params: alertIdParams, body: noteSchema },
  async ({ db, request, user, context, connection, params, body }) => {
    const actor = { actor: user, ip: context.ip, pageView: context.pageView, origin: new URL(request.url).origin };
    return json(await addAlertNote(db, actor, connection.id, params.id, body.text), { status: 201 });
  },
);
