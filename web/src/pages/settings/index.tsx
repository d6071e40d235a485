import { useEffect } from 'preact/hooks';
import { roleAtLeast } from '../../../../src/lib/roles.js';
import { useApp } from '../../app-state.js';
import { AccountSettings } from './account.js';
import { ApiKeys } from './api-keys.js';
import { AutoPlugSettings } from './auto-plug.js';
import { NotificationSettings } from './notifications.js';
import { PasswordSettings } from './password.js';
import { ReviewLinkSettings } from './review-links.js';
import { TeamMembers, useWorkspaceRole } from './team-members.js';
import { WebhookSettings } from './webhooks.js';

/** Settings: time zone and workspace, the team's members, password, API keys, auto-plug, webhooks, email notifications. */
export function SettingsPage() {
  // Auto-plug and webhooks are an admin's (src/http/access.ts): hidden from the other roles.
  const role = useWorkspaceRole();
  const admin = role !== null && roleAtLeast(role, 'admin');
  // Review links are a team's: the personal workspace has none.
  const teamId = useApp().account.activeTeamId;
  useEffect(() => {
    document.title = 'Settings · Skein';
  }, []);
  return (
    <div class="stack settings-page">
      <h1>Settings</h1>
      <AccountSettings />
      <TeamMembers />
      <ApiKeys />
      {admin && <AutoPlugSettings />}
      {admin && <WebhookSettings />}
      {admin && teamId && <ReviewLinkSettings teamId={teamId} />}
      <NotificationSettings />
      <PasswordSettings />
    </div>
  );
}
