/**
 * App. B.3's depth-consistency count, written for the tests apart from the generator: of an
 * object's own front-surface pixels (its depth map rendered alone), how many the scene's depth
 * map agrees with to within 0.1 m.
 */
export function depthAgreement(sceneDepth: Float32Array, aloneDepth: Float32Array): { front: number; visible: number } {
  let front = 0, visible = 0;
  for (let p = 0; p < aloneDepth.length; p++) {
    if (aloneDepth[p] === 0) continue;
    front++;
    if (sceneDepth[p]! > 0 && Math.abs(aloneDepth[p]! - sceneDepth[p]!) < 0.1) visible++;
  }
  return { front, visible };
}
