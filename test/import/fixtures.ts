// Hand-made RFC 822 messages covering what the importer must decode and thread. Bodies are built as
// latin1 "binary strings" so 8-bit charsets are exercised byte for byte.

export function bytes(binary: string): Buffer {
  return Buffer.from(binary.replace(/\n/g, '\r\n'), 'latin1');
}

/** A question in multipart/alternative: QP latin1 text part + HTML part; encoded-word subject. */
export const question = bytes(`From: =?iso-8859-1?Q?Ren=E9e_Dupr=E9?= <renee@example.org>
To: users@lists.example.org
Subject: [users] =?iso-8859-1?Q?Caf=E9?= =?iso-8859-1?Q?_cr=E8me?= install fails
Date: Tue, 03 Sep 2002 10:00:00 +0200
Message-ID: <q1@example.org>
List-Id: Users list <users.lists.example.org>
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="XYZ"

This is a multi-part message in MIME format.

--XYZ
Content-Type: text/plain; charset=iso-8859-1
Content-Transfer-Encoding: quoted-printable

The caf=E9 installer stops with an error.=20
# this shell comment must not become a heading
Any idea why? Mail me at renee@example.org.

--=20
Ren=E9e, Paris
--XYZ
Content-Type: text/html; charset=iso-8859-1

<p>The caf\xe9 installer <b>stops</b>.</p>
--XYZ--
`);

/** A base64 UTF-8 reply with References, a bottom quote, and a list footer. */
export const answer = bytes(`From: "Bob (Builder)" <bob@example.net>
Subject: Re: [users] =?utf-8?B?Q2Fmw6kgY3LDqG1l?= install fails
Date: Tue, 03 Sep 2002 12:30:00 +0200
Message-ID: <a1@example.net>
In-Reply-To: <q1@example.org>
References: <q1@example.org>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: base64

${Buffer.from(
  'Run it with --verbose, it prints the cause. Works on my café machine ✓\n\n' +
    'On Tue, 3 Sep 2002, Renée wrote:\n> The café installer stops with an error.\n> Any idea why?\n\n' +
    '_______________________________________________\nusers mailing list\nhttp://lists.example.org/listinfo/users\n',
  'utf8',
).toString('base64')}
`);

/** A windows-1252 reply without In-Reply-To/References: threaded by subject; interleaved quote kept. */
export const followUp = bytes(`From: renee@example.org (Renee Dupre)
Subject: RE: [users] Café crème install fails
Date: Wed, 04 Sep 2002 09:00:00 +0200
Message-ID: <q2@example.org>
Content-Type: text/plain; charset=windows-1252
Content-Transfer-Encoding: 8bit

> Run it with --verbose
That worked, thanks \x93Bob\x94 \x96 the disk was full.

-----Original Message-----
From: bob@example.net
Some old text
`);

/** An unrelated message without Message-ID (keyed by a content hash), no reply prefix. */
export const noId = bytes(`From: Carol <carol@example.com>
Subject: Weekly meeting notes
Date: Thu, 05 Sep 2002 08:00:00 +0000

Notes:
- one
- two
`);

/** A second, unrelated topic with the same subject as the first but no reply prefix: stays separate. */
export const sameSubjectNewTopic = bytes(`From: Dave <dave@example.com>
Subject: Weekly meeting notes
Date: Thu, 12 Sep 2002 08:00:00 +0000
Message-ID: <w2@example.com>

Next week's notes.
`);
