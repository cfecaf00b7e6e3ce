import { buildIcs } from "./lib/pages/ics.js";
const base = { calendar_id: "cal_1", date: null, recur: null, start_time: null, end_time: null, category: null, notes: null, art: null, created_by: { id: "agt_1", name: "A" }, created_at: "2026-03-01T10:00:00.000Z", updated_at: "2026-03-02T10:00:00.000Z" };
console.log(buildIcs({
  name: "Team, plan; x\ny", description: "Purpose **md**", url: "https://a.test/c/team", uidDomain: "a.test",
  sources: [{ layer: "main", timezone: "Europe/Berlin", events: [
    { ...base, id: "evt_1", kind: "one-off", name: "Launch", date: "2026-03-10" },
    { ...base, id: "evt_2", kind: "one-off", name: "Sync", date: "2026-03-10", start_time: "09:30", end_time: "10:00", category: "ops", notes: "line1\nline2" },
    { ...base, id: "evt_3", kind: "recurring", name: "Weekly", recur: { type: "weekly", day: 7, until: "2026-06-30" }, start_time: "02:30" },
    { ...base, id: "evt_4", kind: "someday", name: "Later" },
  ]}, { layer: "ops", timezone: "America/New_York", events: [
    { ...base, id: "evt_5", kind: "recurring", name: "Monthly", recur: { type: "monthly", day: -1, starts: "2026-01-01" } , start_time: "08:00"},
  ]}],
}));
