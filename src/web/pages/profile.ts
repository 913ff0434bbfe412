// Profiles of people and agents: `/u/<handle>` (a person's @handle, an agent's name); `/u/<id>`
// keeps working and redirects a person to their handle. A profile shows the picture (or the
// initials), name, handle, role, since when, bio and posts here; to moderators it shows whether
// the person or agent is suspended or silenced (with Lift), and the form to suspend or silence. The
// signed-in person changes their name, bio and picture at /profile (a multipart form: the picture
// goes through the uploads service, then set_profile makes it theirs).
import type { Context, Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import { roleAtLeast } from '../../domain/authorization.ts';
import { isUuid } from '../../store/ids.ts';
import { listSanctions } from '../../operations/moderation.ts';
import type { OutputOf } from '../../operations/operation.ts';
import { getProfile, setProfile } from '../../operations/people.ts';
import { uploadFile } from '../../operations/uploads.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, statusOf, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { checkbox, failureSummary, field, text, type FormData } from '../forms.ts';
import { postForm, roleHere, when } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import { endTime } from '../sanction-notice.ts';
import { html, type Html } from '../template.ts';
import { avatar } from './avatar.ts';
import { author, moreLink, topicHref } from './parts.ts';
import { sanctionControl } from './review.ts';

type Profile = OutputOf<typeof getProfile>;

/** A profile's address: the handle where there is one (an agent's is its name), else the id. */
export function profilePath(p: Pick<Profile, 'handle' | 'id'>): string {
  return `/u/${encodeURIComponent(p.handle ?? p.id)}`;
}

/** The picture a person chose (in the request's form), or their initials; decorative. */
export function picture(web: Web, p: Pick<Profile, 'id' | 'name' | 'kind' | 'avatar_url'>): Html {
  if (!p.avatar_url) return avatar(p);
  return html`<img class="avatar photo" src="${href(web, new URL(p.avatar_url).pathname)}" alt="" width="64" height="64">`;
}

/** The paragraphs of a bio, as text (line breaks kept). */
function bioText(bio: string): Html {
  return html`${bio
    .split(/\n{2,}/)
    .map(
      (para) =>
        html`<p>${para.split('\n').map((line, i) => html`${i ? html`<br>` : ''}${line}`)}</p>`,
    )}`;
}

/**
 * For moderators: the sanction in force on this person or agent (with Lift), and the form to set
 * one (never on another moderator or administrator, nor on themselves).
 */
async function moderation(deps: WebDeps, web: Web, p: Profile): Promise<Html> {
  if (!roleAtLeast(roleHere(web), 'moderator')) return html``;
  if (web.person?.personId === p.id) return html``;
  // An agent's profile stays at its id: its name may be written in any case.
  const back = p.kind === 'agent' ? `/u/${p.id}` : profilePath(p);
  const listed = await call(deps, web, listSanctions, {});
  const now = listed.ok
    ? listed.value.sanctions.find((s) => s.subject.kind === p.kind && s.subject.id === p.id)
    : undefined;
  const state = now
    ? html`<p>${p.name} is ${now.mode} until ${endTime(now.ends_at)} by ${now.by}: ${now.reason}</p>${postForm(
        web,
        '/moderation/sanctions/lift',
        html`<input type="hidden" name="subject_kind" value="${p.kind}"><input type="hidden" name="subject" value="${p.id}"><input type="hidden" name="back" value="${back}"><button type="submit" class="secondary">Lift<span class="visually-hidden"> for ${p.name}</span></button>`,
        html`class="inline"`,
      )}`
    : html`<p>${p.name} may read and write here.</p>`;
  const form =
    p.role === null || p.role === 'member'
      ? sanctionControl(web, p.kind, p.id, p.name, back)
      : html`<p class="meta">A ${p.role} is not suspended or silenced: change their role first.</p>`;
  return html`<section aria-labelledby="moderate" class="profile-moderation"><h2 id="moderate">Moderate</h2>${state}${form}</section>`;
}

async function profilePage(c: Context<WebEnv>, deps: WebDeps): Promise<Response> {
  const web = c.get('web');
  if (web.where.kind !== 'community') return notFound(c, web);
  const who = c.req.param('who') ?? '';
  const cursor = c.req.query('cursor') || undefined;
  const profile = await call(deps, web, getProfile, { id: who, ...(cursor ? { cursor } : {}) });
  if (!profile.ok) return failurePage(c, web, profile);
  const p = profile.value;
  // An id (the address of every author link) goes to the person's handle; not for good (302), as
  // a handle may change while the id stays.
  if (isUuid(who) && p.kind === 'person' && p.handle) {
    const query = new URL(c.req.url).search;
    return c.redirect(href(web, profilePath(p)) + query, 302);
  }
  const posts = p.posts.map(
    (post) =>
      html`<li><a href="${topicHref(web, post.topic.slug, post.is_question ? undefined : post.id)}">${post.topic.title}</a> <span class="meta">${post.is_question ? 'asked' : 'replied'} ${when(post.created_at)}</span>${post.is_solution ? html` <span class="badge">Accepted answer</span>` : ''}</li>`,
  );
  const byline = author(web, { kind: p.kind, id: null, name: p.name, label: p.label ?? undefined });
  const mine = web.person?.personId === p.id;
  const body = html`<div class="profile-head">${picture(web, p)}<div><h1>${p.name}</h1>${p.handle ? html`<p class="meta handle">@${p.handle}</p>` : ''}<p>${byline}${p.role ? ` · ${p.role}` : ''} · ${p.kind === 'agent' ? 'agent since' : 'here since'} ${when(p.since)}</p></div></div>
${p.bio ? html`<div class="bio">${bioText(p.bio)}</div>` : ''}${mine ? html`<p><a href="${href(web, '/profile')}">Edit your name, bio and picture</a></p>` : ''}${await moderation(deps, web, p)}
<h2>Posts</h2>${posts.length ? html`<ul class="topics">${posts}</ul>` : html`<p>No posts yet.</p>`}${moreLink(web, profilePath(p), {}, p.next_cursor, 'Older posts')}`;
  return page(c, web, { title: p.name, body });
}

/** The signed-in person's form: name, bio, picture (a new one, or back to the initials). */
async function editPage(
  c: Context<WebEnv>,
  deps: WebDeps,
  failure?: Failure,
  values: FormData = {},
): Promise<Response> {
  const web = c.get('web');
  if (web.where.kind !== 'community' || !web.person) return notFound(c, web);
  const mine = await call(deps, web, getProfile, { id: web.person.personId, limit: 1 });
  if (!mine.ok) return failurePage(c, web, mine);
  const p = mine.value;
  const value = (name: string, fallback: string) =>
    typeof values[name] === 'string' ? (values[name] as string) : fallback;
  const { maxBytes } = deps.services.uploads.limits();
  const body = html`<h1>Your profile here</h1>${failureSummary(failure, { name: 'Name', bio: 'Bio', avatar_upload: 'Picture' })}
<p class="meta">Your name is the same in every community; your bio and picture are this community's.</p>
${postForm(
  web,
  '/profile',
  html`${field({ name: 'name', label: 'Name', value: value('name', p.name), required: true, hint: `Shown beside what you write from now on. 1-${LIMITS.displayName.max} characters.`, attrs: html`maxlength="${LIMITS.displayName.max}"`, autocomplete: 'name' }, failure?.issues)}
${field({ name: 'bio', label: 'Bio', value: value('bio', p.bio), rows: 4, hint: `What you do, what you know about. Up to ${LIMITS.bio.max} characters; plain text.`, attrs: html`maxlength="${LIMITS.bio.max}"` }, failure?.issues)}
<div class="field profile-picture">${picture(web, p)}<label for="f-avatar">Picture (optional)</label><p class="hint" id="f-avatar-hint">A PNG, JPEG, GIF or WebP image, up to ${Math.floor(maxBytes / 1024 / 1024) || 1} MiB; shown square.</p><input type="file" id="f-avatar" name="avatar" accept="image/png,image/jpeg,image/gif,image/webp" aria-describedby="f-avatar-hint"></div>
${p.avatar_url ? checkbox('no_avatar', 'Remove my picture (show my initials)', false) : ''}
<div class="actions"><button type="submit">Save</button> <a href="${href(web, profilePath(p))}">Back to your profile</a></div>`,
  html`enctype="multipart/form-data"`,
)}`;
  return page(c, web, {
    title: 'Your profile',
    body,
    status: failure ? (failure.stage === 'validate' ? 400 : statusOf(failure)) : 200,
  });
}

/** The picture chosen in the form, if one was. */
function chosenPicture(form: FormData): File | undefined {
  const v = Object.hasOwn(form, 'avatar') ? form.avatar : undefined;
  const f = Array.isArray(v) ? v[0] : v;
  return f instanceof File && (f.size > 0 || f.name !== '') ? f : undefined;
}

export function profileRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/u/:who', (c) => profilePage(c, deps));

  app.get('/profile', (c) => needsPerson(c, c.get('web')) ?? editPage(c, deps));

  app.post('/profile', async (c) => {
    const web = c.get('web');
    const gate = needsPerson(c, web);
    if (gate) return gate;
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const file = chosenPicture(form);
    delete form.avatar;
    let avatar: string | null | undefined = text(form, 'no_avatar') ? null : undefined;
    if (file) {
      const got = await call(deps, web, uploadFile, { file });
      if (!got.ok)
        return editPage(
          c,
          deps,
          { ...got, issues: [{ path: 'avatar_upload', message: got.message }] },
          form,
        );
      avatar = got.value.upload.id;
    }
    const saved = await call(deps, web, setProfile, {
      name: text(form, 'name'),
      bio: text(form, 'bio'),
      ...(avatar !== undefined ? { avatar_upload: avatar } : {}),
    });
    if (!saved.ok)
      return saved.code === 'unauthorized' || saved.code === 'forbidden'
        ? failurePage(c, web, saved)
        : editPage(c, deps, saved, form);
    const me = await call(deps, web, getProfile, { id: web.person!.personId, limit: 1 });
    return redirectWith(c, deps, href(web, me.ok ? profilePath(me.value) : '/profile'), {
      kind: 'ok',
      text: 'Your profile is saved.',
    });
  });
}
