/** Image attachments validated on arrival (PROTOCOL.md §6), through the real process. */
import { afterEach, describe, expect, test } from "bun:test";
import { promptAndSettle, scenario, type Scenario } from "../support/scenario.ts";
import { fixtures } from "../support/fixtures/index.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const png = { type: "image", data: PNG, mimeType: "image/png" };
let s: Scenario | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe("attachments", () => {
  test.each([
    ["a non-image mime type", { ...png, mimeType: "text/plain" }, /images\[1\]\.mimeType/],
    ["an unsupported image type", { ...png, mimeType: "image/bmp" }, /image\/png, image\/jpeg, image\/gif, image\/webp/],
    ["invalid base64", { ...png, data: "abc$" }, /images\[1\]/],
    ["bytes that are not the declared type", { ...png, mimeType: "image/jpeg" }, /images\[1\]/],
    ["a missing data field", { type: "image", mimeType: "image/png" }, /images\[1\]\.data/],
  ])("%s rejects the whole command and queues nothing", async (_, bad, message) => {
    s = await scenario();
    for (const type of ["prompt", "steer", "follow_up", "abort_and_prompt"]) {
      const r = await s.nova.request({ type, message: "look", images: [png, bad] });
      expect(r.success).toBe(false);
      expect(r.error).toMatch(message);
    }
    const state = await s.nova.request({ type: "get_state" });
    expect(state.data).toMatchObject({ isStreaming: false, messageCount: 0, pendingMessageCount: 0 });
    expect(s.server.requests).toHaveLength(0);
  });

  test("mime_type is accepted as an alias, and the image is re-sent with every later request", async () => {
    s = await scenario();
    s.server.enqueue(fixtures.openaiChat.text("a pixel"), fixtures.openaiChat.text("still a pixel"));
    await promptAndSettle(s.nova, "what is it?", { images: [{ type: "image", data: PNG, mime_type: "image/png" }] });
    await promptAndSettle(s.nova, "and now?");
    expect(JSON.stringify(s.server.requests[1]!.body)).toContain(PNG);
    const messages = (await s.nova.request({ type: "get_messages" })).data.messages;
    expect(messages[0].content[1]).toEqual({ type: "image", data: PNG, mimeType: "image/png" });
  });

  test("17 images are refused, 16 accepted", async () => {
    s = await scenario();
    const r = await s.nova.request({ type: "prompt", message: "many", images: Array(17).fill(png) });
    expect(r.success).toBe(false);
    expect(r.error).toContain("16");
    s.server.enqueue(fixtures.openaiChat.text("sixteen"));
    const frames = await promptAndSettle(s.nova, "many", { images: Array(16).fill(png) });
    expect(frames.find((fr) => fr.type === "message_end" && fr.message.role === "user")!.message.content).toHaveLength(17);
  });
});
