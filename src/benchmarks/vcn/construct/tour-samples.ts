/**
 * Sample tour frames for the documentation (docs/images/vcn-*.jpg): real frames of seeded tours
 * (the same pose, camera, lighting and render as buildTour's frame of that index), picked by what
 * their annotation shows. Made by
 *   node --import tsx -e 'import("./src/benchmarks/vcn/construct/tour-samples.ts").then((m) => m.writeTourSamples("docs/images")).then((s) => console.log(JSON.stringify(s, null, 1)))'
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { readLibraries } from "../../../world/assets/catalog.js";
import { ModelLibrary } from "../../../world/assets/models.js";
import { generateHouse } from "../../../world/house/index.js";
import { sceneMeshes } from "../../../world/meshes.js";
import { prepareShadows, renderView } from "../../../world/render/index.js";
import { STRUCTURE_ID_BASE } from "../../../world/types.js";
import { annotateFrame, indexTourScene, planTourPoses, tourCamera, tourFrameJpeg, tourGrids, tourRenderOptions, type TourPlan } from "./tour.js";

export interface TourSample {
  file: string;
  tour: string;
  frame: number;
  room: string | null;
  roomType: string | null;
  objects: string[];
  visibleRooms: string[];
  camera: TourPlan["camera"];
  lighting: TourPlan["lighting"];
  shows: string;
}

/** Every `stride`-th pose, with what it shows (unlit centre-sample render: the annotation does not depend on light). */
function scan(plan: TourPlan, index: ReturnType<typeof indexTourScene>, meshes: Parameters<typeof renderView>[0], stride: number) {
  return plan.poses.filter((p) => p.index % stride === 0).map((pose) => {
    const camera = tourCamera(pose, plan.camera);
    const view = renderView(meshes, camera, { shading: "unlit", antialias: false, ambientOcclusion: false, shadows: false });
    const seen = annotateFrame(index, camera, view);
    let otherFloor = 0;
    index.scene.rooms.forEach((room, k) => {
      if (room.id !== seen.room) otherFloor += view.instance.filter((id) => id === STRUCTURE_ID_BASE.floor + k).length;
    });
    return { pose, seen, otherFloor };
  });
}

/**
 * Four frames of two tours of a seeded 7-room house: per tour, the scanned frame with the most
 * visible objects and the one showing most floor of other rooms (ties: the earlier frame).
 */
export async function writeTourSamples(outDir: string, houseSeed = 11, stride = 5): Promise<TourSample[]> {
  const catalogue = readLibraries();
  const library = new ModelLibrary();
  const scene = await generateHouse({ catalogue, library, seed: houseSeed, rooms: 7 });
  const meshes = await sceneMeshes(scene, library, catalogue);
  const grids = tourGrids(scene, meshes);
  const index = indexTourScene(scene, meshes);
  const shadows = prepareShadows(meshes, scene.lights);
  const typeOf = new Map(scene.rooms.map((r) => [r.id, r.type]));
  await mkdir(outDir, { recursive: true });
  const out: TourSample[] = [];
  for (const tourIndex of [0, 1]) {
    const plan = planTourPoses({ scene, grids, seed: houseSeed, tourIndex });
    const scanned = scan(plan, index, meshes, stride);
    const best = (key: (s: (typeof scanned)[number]) => number) => scanned.reduce((a, b) => (key(b) > key(a) ? b : a));
    const picks = [
      { name: "objects", pick: best((s) => s.seen.objects.length), shows: "the frame with the most objects visible by App. B.3" },
      { name: "doorway", pick: best((s) => s.otherFloor), shows: "the frame showing most floor of other rooms (a room seen from outside)" },
    ];
    const render = tourRenderOptions(scene, plan.lighting, shadows);
    for (const { name, pick, shows } of picks) {
      const view = renderView(meshes, tourCamera(pick.pose, plan.camera), render);
      const file = path.join(outDir, `vcn-tour${tourIndex}-${name}.jpg`);
      await writeFile(file, await tourFrameJpeg(view.rgb, plan.camera.width, plan.camera.height));
      out.push({
        file, tour: plan.id, frame: pick.pose.index, room: pick.seen.room, roomType: pick.seen.room ? typeOf.get(pick.seen.room) ?? null : null,
        objects: pick.seen.objects.map((o) => o.name), visibleRooms: pick.seen.visibleRooms.map((r) => `${r} (${typeOf.get(r)})`),
        camera: plan.camera, lighting: plan.lighting, shows,
      });
    }
  }
  return out;
}
