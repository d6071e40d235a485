import { NETWORK_KINDS, NETWORKS, type NetworkKind } from '../../networks/index.js';
import type { ConnectMethod, Limits, Network, NetworkOption } from '../../networks/network.js';

/** A network as `GET /api/v1/networks` answers it (decisions.md "Networks in one place"). */
interface NetworkView {
  kind: NetworkKind;
  name: string;
  limits: Limits;
  options: NetworkOption[];
  connect: ConnectMethod[];
}

/** The names of the options a network takes (an option it accepts and ignores is not one). */
function optionNames({ options: o }: Network): NetworkOption[] {
  const takes: [NetworkOption, boolean][] = [
    ['replyControl', o.replyControls.length > 1],
    ['quotesDisabled', o.quotesDisabled],
    ['quote', o.quote !== null],
    ['poll', o.polls],
    ['langs', o.langs > 0],
    ['contentWarning', o.contentWarning],
  ];
  return takes.filter(([, taken]) => taken).map(([name]) => name);
}

/** Every network's facts, in the registry's order: the same for every caller. */
export function listNetworks(): NetworkView[] {
  return NETWORK_KINDS.map((kind) => {
    const network: Network = NETWORKS[kind];
    return { kind, name: network.name, limits: { ...network.limits }, options: optionNames(network), connect: [...network.connect] };
  });
}
