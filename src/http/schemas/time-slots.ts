import { Type } from '@sinclair/typebox';
import { Id, IsoDateTime, LocalDateTime, TeamIdQuery } from './common.js';

const DayOfWeek = Type.Integer({ minimum: 1, maximum: 7, description: 'ISO day of week: Monday = 1 … Sunday = 7' });
const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Local time HH:mm (24 h)', examples: ['09:30'] });

export const TimeSlot = Type.Object({
  id: Id,
  providerId: Id,
  dayOfWeek: DayOfWeek,
  time: Time,
  timezone: Type.String({ description: 'IANA time zone the time is read in' }),
  createdAt: IsoDateTime,
});

export const ListTimeSlotsQuery = Type.Object({
  providerId: Type.Optional(Type.String({ description: 'Only this provider’s slots' })),
  teamId: TeamIdQuery,
});

export const TimeSlotList = Type.Object({ timeSlots: Type.Array(TimeSlot), count: Type.Integer() });

export const CreateTimeSlotBody = Type.Object({
  providerId: Type.String(),
  dayOfWeek: DayOfWeek,
  time: Time,
  timezone: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone; default: the account’s zone now (stored with the slot)',
      examples: ['Europe/Berlin'],
    }),
  ),
  teamId: TeamIdQuery,
});

export const TimeSlotIdParams = Type.Object({ id: Id });

export const DeletedTimeSlot = Type.Object({ deleted: Type.Boolean(), id: Id });

export const NextTimeSlotsQuery = Type.Object({
  providerId: Type.String(),
  count: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'How many instants: a whole number 1–50 (default 5)', examples: ['5'] })),
  teamId: TeamIdQuery,
});

export const NextTimeSlots = Type.Object({
  providerId: Id,
  slots: Type.Array(IsoDateTime, { description: 'The next free instants after now, within 366 days, earliest first' }),
});

export const FreeTimeSlotsQuery = Type.Object({
  from: LocalDateTime,
  to: LocalDateTime,
  providerId: Type.Optional(Type.String({ description: "One provider's slots; omitted = every provider of the workspace" })),
  teamId: TeamIdQuery,
});

export const FreeTimeSlots = Type.Object({
  slots: Type.Array(Type.Object({ providerId: Id, at: IsoDateTime }), {
    description: 'Every free instant of the slots from `from` (or now, if later) to `to`, earliest first',
  }),
  count: Type.Integer(),
});

export const QueueBody = Type.Object({}, { description: 'Empty: the thread goes to its provider’s next free time slot' });
