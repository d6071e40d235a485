import { useEffect } from 'preact/hooks';
import { AccountSettings } from './account.js';
import { ApiKeys } from './api-keys.js';
import { AutoPlugSettings } from './auto-plug.js';
import { NotificationSettings } from './notifications.js';
import { PasswordSettings } from './password.js';
import { TeamMembers } from './team-members.js';
import { WebhookSettings } from './webhooks.js';

/** Settings: time zone and workspace, the team's members, password, API keys, auto-plug, webhooks, email notifications. */
export function SettingsPage() {
  useEffect(() => {
    document.title = 'Settings · Skein';
  }, []);
  return (
    <div class="stack settings-page">
      <h1>Settings</h1>
      <AccountSettings />
      <TeamMembers />
      <ApiKeys />
      <AutoPlugSettings />
      <WebhookSettings />
      <NotificationSettings />
      <PasswordSettings />
    </div>
  );
}
