import { createServer } from "node:net";
import { it } from "vitest";
import { FirestoreServer } from "@firestore-emulator/server";
import { initializeApp } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
it("probe", async () => {
  const port: number = await new Promise((r) => { const s = createServer(); s.listen(0, () => { const p = (s.address() as any).port; s.close(() => r(p)); }); });
  const server = new FirestoreServer(); await server.start(port);
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  const db = getFirestore(initializeApp({ projectId: "demo-x" }, "x"));
  await db.doc("c/a").set({ note: null, kind: "m" });
  await db.doc("c/b").set({ note: "x", kind: "m" });
  const t0 = Date.now();
  try { const s = await db.collection("c").where("note", "==", null).where("kind", "==", "m").get(); console.log("ok", s.docs.map(d => d.id)); }
  catch (e) { console.log("err", (e as any).code, (e as Error).message, Date.now() - t0); }
  try { await db.runTransaction(async (t) => { t.create(db.doc("c/a"), {}); }); } catch (e) { console.log("create err", (e as any).code, (e as Error).message); }
  try { await db.runTransaction(async (t) => { t.update(db.doc("c/zz"), {n: 1}); }); } catch (e) { console.log("update err", (e as any).code, (e as Error).message); }
  server.stop();
}, 120000);
