import { useEffect, useId, useState } from 'preact/hooks';
import { ROLES, roleAtLeast } from '../../../../src/lib/roles.js';
import type { Member, Role } from '../../api/account.js';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';

/** What a member of each role may do, as the server's table says it (src/http/access.ts). */
const ROLE_HINTS: Record<Role, string> = {
  viewer: 'reads and comments',
  writer: 'writes threads, which wait for approval',
  editor: 'schedules, approves, reschedules and deletes',
  admin: 'connects accounts, manages webhooks, time slots and members',
  owner: 'everything, and gives the admin and owner roles',
};

/** Whether a member of `own` role may give or take `role` (an admin manages the roles below admin). */
function mayManage(own: Role, role: Role): boolean {
  return own === 'owner' || (own === 'admin' && !roleAtLeast(role, 'admin'));
}

/** The caller's role in the active workspace (`owner` of the personal one); null while it loads. */
export function useWorkspaceRole(): Role | null {
  const { api, account } = useApp();
  const teamId = account.activeTeamId;
  const [role, setRole] = useState<Role | null>(teamId ? null : 'owner');
  useEffect(() => {
    if (!teamId) {
      setRole('owner');
      return;
    }
    setRole(null);
    api.teams
      .list()
      .then((teams) => setRole(teams.find((t) => t.id === teamId)?.role ?? 'viewer'))
      .catch(() => setRole('viewer'));
  }, [api, teamId]);
  return role;
}

/** Settings → Team members: the active team's members and their roles; admins and owners change them. */
export function TeamMembers() {
  const { api, account } = useApp();
  const teamId = account.activeTeamId;
  const [members, setMembers] = useState<Member[] | null>(null);
  const [own, setOwn] = useState<Role>('viewer');
  const { error, run } = useSubmit();

  useEffect(() => {
    if (!teamId) return;
    setMembers(null);
    api.teams
      .list()
      .then((teams) => setOwn(teams.find((t) => t.id === teamId)?.role ?? 'viewer'))
      .catch(() => setOwn('viewer'));
    api.teams
      .members(teamId)
      .then(setMembers)
      .catch(() => setMembers([]));
  }, [api, teamId]);
  if (!teamId) return null;

  const replace = (changed: Member) => setMembers((list) => (list ?? []).map((m) => (m.accountId === changed.accountId ? changed : m)));
  const canManage = roleAtLeast(own, 'admin');
  return (
    <section class="card" aria-labelledby="members-heading">
      <h2 id="members-heading">Team members</h2>
      <p class="hint">
        Your role in this team: {own} ({ROLE_HINTS[own]}).
      </p>
      {members === null && <p class="hint">Loading…</p>}
      {members && (
        <ul class="members">
          {members.map((m) => (
            <li key={m.accountId}>
              <span>{m.email}</span>{' '}
              <select
                aria-label={`Role of ${m.email}`}
                value={m.role}
                disabled={!canManage || !mayManage(own, m.role)}
                onChange={(e) => {
                  const role = (e.currentTarget as HTMLSelectElement).value as Role;
                  void run(async () => replace(await api.teams.setRole(teamId, m.accountId, role)));
                }}
              >
                {ROLES.map((role) => (
                  <option key={role} value={role} disabled={!mayManage(own, role)}>
                    {role}
                  </option>
                ))}
              </select>{' '}
              {canManage && mayManage(own, m.role) && m.accountId !== account.id && (
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Remove ${m.email}`}
                  onClick={() =>
                    void run(async () => {
                      await api.teams.removeMember(teamId, m.accountId);
                      setMembers((list) => (list ?? []).filter((other) => other.accountId !== m.accountId));
                    })
                  }
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormMessage message={formMessage(error, [])} />
      {canManage && <AddMemberForm teamId={teamId} own={own} onAdded={(m) => setMembers((list) => [...(list ?? []), m])} />}
    </section>
  );
}

function AddMemberForm(props: { teamId: string; own: Role; onAdded: (member: Member) => void }) {
  const { api } = useApp();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('writer');
  const { busy, error, run } = useSubmit();
  const roleId = useId();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      props.onAdded(await api.teams.addMember(props.teamId, email.trim(), role));
      setEmail('');
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <TextField label="Email of the account to add" name="email" type="email" value={email} onValue={setEmail} error={error?.at('email')} />
      <div class="field">
        <label for={roleId}>Role</label>
        <select id={roleId} value={role} onChange={(e) => setRole((e.currentTarget as HTMLSelectElement).value as Role)}>
          {ROLES.filter((r) => mayManage(props.own, r)).map((r) => (
            <option key={r} value={r}>
              {r}: {ROLE_HINTS[r]}
            </option>
          ))}
        </select>
      </div>
      <FormMessage message={formMessage(error, ['email'])} />
      <Submit busy={busy}>Add member</Submit>
    </form>
  );
}
