// The upload flow: a ticket from POST /v1/media, then the bytes PUT to its URL.

import { api, upload } from "./api.js";

export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

export async function imageSize(file) {
  const bitmap = await createImageBitmap(file);
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}

/** Upload one image; resolves to its media ID. */
export async function uploadImage(file, alt, onProgress) {
  const { width, height } = await imageSize(file);
  const ticket = await api("POST", "/v1/media", { body: { content_type: file.type, width, height, alt } });
  await upload(ticket.upload_url, file, onProgress, ticket.upload_headers);
  return ticket.media_id;
}
