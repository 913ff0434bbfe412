// profile.set: a person changes what they show of themselves: their name (the account's, the same
// in every community, beside what they write from now on), and in this community their bio and
// picture. The picture is an image this person uploaded to this community (the upload service
// checked its content); null puts the generated initials back. A use case of the one runner.
import { z } from 'zod';
import type { MemberProfile } from '../store/member-profiles.ts';
import { DomainError } from './errors.ts';
import { bio, displayName, recordId } from './fields.ts';
import { isImage } from './uploads/links.ts';
import { personalWrite } from './writes/personal-write.ts';

export const profileFields = {
  name: displayName.optional().describe('Your name, as others see it (1-100 characters).'),
  bio: bio.optional().describe('What you say of yourself here (up to 1,000 characters).'),
  avatar_upload: recordId
    .nullable()
    .optional()
    .describe('The id of an image you uploaded here, as your picture; null: your initials again.'),
};

export const profileContract = z
  .object(profileFields)
  .refine((v) => v.name !== undefined || v.bio !== undefined || v.avatar_upload !== undefined, {
    message: 'give a name, a bio or a picture to change',
  });

export const profileSet = personalWrite({
  name: 'profile.set',
  contract: profileContract,
  load: async ({ store, community }, person, input) => {
    if (!input.avatar_upload) return null;
    const upload = await store.community(community.id).uploads.get(input.avatar_upload);
    if (!upload || upload.uploaderKind !== 'person' || upload.uploaderId !== person.personId)
      throw new DomainError(
        'not_found',
        `No upload "${input.avatar_upload}" of yours in "${community.slug}": upload the picture here first.`,
      );
    if (!isImage(upload))
      throw new DomainError(
        'invalid_argument',
        `"${upload.filename}" is not an image: a picture is a PNG, JPEG, GIF or WebP file.`,
      );
    return null;
  },
  apply: async (step, person, input): Promise<{ name?: string; profile: MemberProfile }> => {
    if (input.name !== undefined) await step.tx.people.setDisplayName(person.personId, input.name);
    const profile = await step.tx.community(step.community.id).memberProfiles.set(person.personId, {
      ...(input.bio !== undefined ? { bio: input.bio.replace(/\r\n?/g, '\n') } : {}),
      ...(input.avatar_upload !== undefined ? { avatarUploadId: input.avatar_upload } : {}),
    });
    return { ...(input.name !== undefined ? { name: input.name } : {}), profile };
  },
  targets: (r) => ({ person_id: r.profile.personId }),
});
