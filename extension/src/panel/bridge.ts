// The side panel's line to the background worker (the only part that touches tabs).
import { browser } from "wxt/browser";
import { MESSAGE_TAG, type Envelope, type PanelReply, type PanelRequest, type PanelResults } from "../messages.js";

export async function ask<K extends PanelRequest["type"]>(request: Extract<PanelRequest, { type: K }>): Promise<PanelResults[K]> {
  const envelope: Envelope = { tag: MESSAGE_TAG, request };
  const reply = (await browser.runtime.sendMessage(envelope)) as PanelReply<K> | undefined;
  if (!reply) throw new Error("The extension's background worker did not answer. Reload the extension and try again.");
  if (!reply.ok) throw new Error(reply.error);
  return reply.data;
}
