// Generated from the API's OpenAPI document by `npm run openapi:web` (scripts/openapi-types.ts); do not edit.
// npm test fails when this file differs from what the server's route schemas give now.

export interface paths {
    "/api/v1/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List scheduled and published threads in a date range */
        get: {
            parameters: {
                query: {
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    from: string;
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    to: string;
                    providerId?: string;
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                    approval?: "PENDING" | "APPROVED" | "REJECTED";
                    /** @description Only the threads carrying this tag (a tag of another workspace, or none, matches no thread) */
                    tagId?: string;
                    /** @description Opt-in: 'tags' adds each thread's tags (id, name, color) to the answer, read in the same database statement. Without it the answer is unchanged. */
                    include?: "tags";
                    /**
                     * @description Threads per page: a whole number 1–1000. Without limit and cursor the whole range is answered (no nextCursor) while it holds at most 2000 threads; a range holding more is a 400 at limit.
                     * @example 100
                     */
                    limit?: string;
                    /** @description The previous page's nextCursor, as given: the next page starts after it (same other parameters) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description By scheduledAt, then threadId */
                            threads: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                scheduledAt: string | null;
                                provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                                providerUserId: string;
                                status: "READY" | "PUBLISHING" | "PUBLISHED" | "FAILED";
                                /** @description Who may reply to the thread; default everyone */
                                replyControl: "everyone" | "following" | "followers" | "mentioned" | "nobody";
                                quotesDisabled: boolean;
                                /** @description The repeat rule; on the waiting occurrence of a series only, null otherwise */
                                repeat: {
                                    every: number;
                                    unit: "day" | "week" | "month";
                                    until: string | null;
                                    count: number | null;
                                } | null;
                                /** @description The series of a recurring thread (its id is the first occurrence's threadId), or null */
                                series: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    /** @description From 1 */
                                    occurrence: number;
                                } | null;
                                approval: {
                                    state: "PENDING" | "APPROVED" | "REJECTED";
                                    /** @description The deciding member's email, or a review link's reviewer name */
                                    by: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds and Z
                                     */
                                    at: string | null;
                                    note: string | null;
                                } | null;
                                posts: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    content: string;
                                    postOrder: number;
                                    images: string[];
                                    topic: string | null;
                                    postMedia: {
                                        /** @description Opaque identifier */
                                        id: string;
                                        url: string;
                                        altText: string | null;
                                        type: "IMAGE" | "VIDEO";
                                    }[];
                                    spoilerRanges: {
                                        /** @description 0-based, in UTF-16 code units */
                                        offset: number;
                                        /** @description In UTF-16 code units, at least 1 */
                                        length: number;
                                    }[];
                                    isSpoilerMedia: boolean;
                                    linkPreview: boolean;
                                    quote: string | null;
                                    /** @description A post without media (LINKEDIN: the first post only) */
                                    poll: {
                                        /** @description 2 to 4 options of 1 to 25 characters */
                                        options: string[];
                                        /** @description LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere */
                                        question?: string;
                                    } | null;
                                    langs: string[];
                                    contentWarning: string | null;
                                    status: "READY" | "PUBLISHING" | "PUBLISHED" | "FAILED";
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds and Z
                                     */
                                    publishedAt: string | null;
                                    permaLink: string | null;
                                    autoRepostDelay: string[];
                                    analytics: {
                                        views: number | null;
                                        likes: number | null;
                                        replies: number | null;
                                        reposts: number | null;
                                        quotes: number | null;
                                        shares: number | null;
                                        /**
                                         * Format: date-time
                                         * @description ISO 8601 UTC with milliseconds and Z
                                         */
                                        fetchedAt: string;
                                    } | null;
                                    error: {
                                        code: string;
                                        message: string;
                                    } | null;
                                }[];
                                /** @description Only with include=tags: the thread's tags, sorted by name case-insensitively */
                                tags?: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    name: string;
                                    color: string;
                                }[];
                            }[];
                            /** @description The threads in this answer (this page, when paged) */
                            count: number;
                            /** @description Pass as cursor for the next page; null on the last page */
                            nextCursor?: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Create a thread (scheduled) or a draft (no scheduleAt) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        providerId: string;
                        posts: {
                            text: string;
                            topic?: string | null;
                            /** @description Up to 20 items; each network allows fewer (content rules) */
                            media?: {
                                /** @description Public http(s) image URL */
                                url: string;
                                altText?: string | null;
                            }[];
                            spoilerRanges?: {
                                /** @description 0-based, in UTF-16 code units */
                                offset: number;
                                /** @description In UTF-16 code units, at least 1 */
                                length: number;
                            }[];
                            isSpoilerMedia?: boolean;
                            /** @description Bluesky: a link card for the first link of a post without media (default true); Threads and Mastodon make their own */
                            linkPreview?: boolean;
                            /** @description What the post quotes: the id of a published Skein post of the same network in the workspace, or the network's reference (THREADS: a media id; BLUESKY: an at:// URI or a bsky.app post URL) */
                            quote?: string | null;
                            poll?: {
                                /** @description 2 to 4 options of 1 to 25 characters */
                                options: string[];
                                /** @description LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere */
                                question?: string;
                            } | null;
                            /** @description Up to 3 language tags (en, pt-BR); BLUESKY only, accepted elsewhere */
                            langs?: string[];
                            /** @description 1 to 500 characters; accepted and ignored on THREADS and BLUESKY */
                            contentWarning?: string | null;
                        }[];
                        /**
                         * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                         * @example 2026-12-01T09:30:00
                         * @example 2026-12-01T09:30:00+01:00
                         */
                        scheduleAt?: string;
                        /** @description true: schedule at the provider's next free time slot (without scheduleAt) */
                        queue?: boolean;
                        autoRepost?: {
                            enabled: boolean;
                            delays?: string[];
                        };
                        /** @description The thread's tags by name, as Set Thread Tags takes them: trimmed, matched case-insensitively, missing ones created; at most 50 */
                        tags?: string[];
                        teamId?: string;
                        repeat?: {
                            /** @description 1 to 365 */
                            every: number;
                            /** @description day, week or month */
                            unit: string;
                            /** @description YYYY-MM-DD in the account zone: no occurrence on a later date; not before the first occurrence */
                            until?: string;
                            /** @description Occurrences in all, the first included: 2 to 100 */
                            count?: number;
                        } | null;
                        /** @description Who may reply to the thread; default everyone */
                        replyControl?: "everyone" | "following" | "followers" | "mentioned" | "nobody";
                        /** @description BLUESKY: no one may quote the posts (a postgate on each); default false */
                        quotesDisabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            threadId: string;
                            status: "scheduled" | "draft";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            scheduledAt: string | null;
                            postCount: number;
                            autoPlugApplied: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/days": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Threads per local day of a range of at most 62 days, by status (a calendar month of any size, in one request) */
        get: {
            parameters: {
                query: {
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    from: string;
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    to: string;
                    /** @description One provider's threads; omitted = every provider of the workspace */
                    providerId?: string;
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                    /** @description Only the threads carrying this tag of the workspace */
                    tagId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The account's time zone: the dates are local dates there */
                            timeZone: string;
                            /** @description By date; a day without a thread is left out */
                            days: {
                                /** @description YYYY-MM-DD, a local date of timeZone */
                                date: string;
                                /** @description Threads scheduled that local day, every status */
                                threads: number;
                                byStatus: {
                                    READY: number;
                                    PUBLISHING: number;
                                    PUBLISHED: number;
                                    FAILED: number;
                                };
                                /** @description Of them, waiting for approval */
                                pendingApproval: number;
                                /** @description Of them, rejected */
                                rejected: number;
                            }[];
                            /** @description The days listed */
                            count: number;
                            /** @description The threads of every day listed */
                            threads: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List drafts */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            drafts: {
                                /** @description Opaque identifier */
                                threadId: string;
                                provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                                providerUserId: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                                posts: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    content: string;
                                    postOrder: number;
                                    images: string[];
                                    topic: string | null;
                                    postMedia: {
                                        /** @description Opaque identifier */
                                        id: string;
                                        url: string;
                                        altText: string | null;
                                        type: "IMAGE" | "VIDEO";
                                    }[];
                                    spoilerRanges: {
                                        /** @description 0-based, in UTF-16 code units */
                                        offset: number;
                                        /** @description In UTF-16 code units, at least 1 */
                                        length: number;
                                    }[];
                                    isSpoilerMedia: boolean;
                                }[];
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one thread with its posts and analytics */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The thread's version as a strong entity tag (`"12"`): send it back in If-Match to change only what you read. */
                        etag?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            thread: components["schemas"]["Thread"];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a thread (Skein records only; published posts stay on the network) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                            /** @description Opaque identifier */
                            threadId: string;
                            postsDeleted: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/posts/{postId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Edit one READY post */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                    /** @description Opaque identifier */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        content?: string;
                        topic?: string | null;
                        /** @description Up to 20 items; each network allows fewer (content rules) */
                        media?: {
                            /** @description Public http(s) image URL */
                            url: string;
                            altText?: string | null;
                        }[];
                        spoilerRanges?: {
                            /** @description 0-based, in UTF-16 code units */
                            offset: number;
                            /** @description In UTF-16 code units, at least 1 */
                            length: number;
                        }[];
                        isSpoilerMedia?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            postId: string;
                            /** @description Opaque identifier */
                            threadId: string;
                            updated: {
                                content: boolean;
                                topic: boolean;
                                media: boolean;
                                spoilerRanges: boolean;
                                isSpoilerMedia: boolean;
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/posts/{threadId}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace all posts of a thread whose posts are all READY; with tags and scheduleAt or queue, save them in the same transaction */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        posts: {
                            id?: string;
                            text: string;
                            topic?: string | null;
                            /** @description Up to 20 items; each network allows fewer (content rules) */
                            media?: {
                                /** @description Public http(s) image URL */
                                url: string;
                                altText?: string | null;
                            }[];
                            spoilerRanges?: {
                                /** @description 0-based, in UTF-16 code units */
                                offset: number;
                                /** @description In UTF-16 code units, at least 1 */
                                length: number;
                            }[];
                            isSpoilerMedia?: boolean;
                            /** @description Bluesky: a link card for the first link of a post without media (default true); Threads and Mastodon make their own */
                            linkPreview?: boolean;
                            /** @description What the post quotes: the id of a published Skein post of the same network in the workspace, or the network's reference (THREADS: a media id; BLUESKY: an at:// URI or a bsky.app post URL) */
                            quote?: string | null;
                            poll?: {
                                /** @description 2 to 4 options of 1 to 25 characters */
                                options: string[];
                                /** @description LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere */
                                question?: string;
                            } | null;
                            /** @description Up to 3 language tags (en, pt-BR); BLUESKY only, accepted elsewhere */
                            langs?: string[];
                            /** @description 1 to 500 characters; accepted and ignored on THREADS and BLUESKY */
                            contentWarning?: string | null;
                        }[];
                        /** @description The thread's tags by name, as Set Thread Tags takes them: trimmed, matched case-insensitively, missing ones created; at most 50 */
                        tags?: string[];
                        /**
                         * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                         * @example 2026-12-01T09:30:00
                         * @example 2026-12-01T09:30:00+01:00
                         */
                        scheduleAt?: string;
                        /** @description true: schedule at the provider's next free time slot (without scheduleAt) */
                        queue?: boolean;
                        repeat?: {
                            /** @description 1 to 365 */
                            every: number;
                            /** @description day, week or month */
                            unit: string;
                            /** @description YYYY-MM-DD in the account zone: no occurrence on a later date; not before the first occurrence */
                            until?: string;
                            /** @description Occurrences in all, the first included: 2 to 100 */
                            count?: number;
                        } | null;
                        /** @description Who may reply to the thread; default everyone */
                        replyControl?: "everyone" | "following" | "followers" | "mentioned" | "nobody";
                        /** @description BLUESKY: no one may quote the posts (a postgate on each); default false */
                        quotesDisabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            threadId: string;
                            postsUpdated: number;
                            postsCreated: number;
                            postsDeleted: number;
                            totalPosts: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/reschedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change the scheduled time (also schedules a draft) */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                         * @example 2026-12-01T09:30:00
                         * @example 2026-12-01T09:30:00+01:00
                         */
                        scheduleAt: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            threadId: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            scheduledAt: string;
                            postsUpdated: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retry a FAILED thread after its last published post */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                         * @example 2026-12-01T09:30:00
                         * @example 2026-12-01T09:30:00+01:00
                         */
                        scheduleAt?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            thread: components["schemas"]["Thread"];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a thread waiting for approval: it is published at its time (at once if that has passed) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        note?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The thread's version as a strong entity tag (`"12"`): send it back in If-Match to change only what you read. */
                        etag?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            thread: components["schemas"]["Thread"];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a thread waiting for approval, with a note: it is never published unless changed and approved */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        note?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The thread's version as a strong entity tag (`"12"`): send it back in If-Match to change only what you read. */
                        etag?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            thread: components["schemas"]["Thread"];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A thread's comments, oldest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            comments: {
                                /** @description Opaque identifier */
                                id: string;
                                /** @description The member's email (or a review link's reviewer name) */
                                author: string;
                                text: string;
                                postId: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Comment on a thread, or on one of its posts (at most 5,000 characters) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        text: string;
                        postId?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            /** @description The member's email (or a review link's reviewer name) */
                            author: string;
                            text: string;
                            postId: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import up to 1,000 threads at once (CSV or a JSON array of Create Post bodies): all or nothing; dryRun=true checks without creating */
        post: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                    /** @description true: check and answer as an import would, creating nothing */
                    dryRun?: "true" | "false";
                };
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        providerId: string;
                        posts: {
                            text: string;
                            topic?: string | null;
                            /** @description Up to 20 items; each network allows fewer (content rules) */
                            media?: {
                                /** @description Public http(s) image URL */
                                url: string;
                                altText?: string | null;
                            }[];
                            spoilerRanges?: {
                                /** @description 0-based, in UTF-16 code units */
                                offset: number;
                                /** @description In UTF-16 code units, at least 1 */
                                length: number;
                            }[];
                            isSpoilerMedia?: boolean;
                            /** @description Bluesky: a link card for the first link of a post without media (default true); Threads and Mastodon make their own */
                            linkPreview?: boolean;
                            /** @description What the post quotes: the id of a published Skein post of the same network in the workspace, or the network's reference (THREADS: a media id; BLUESKY: an at:// URI or a bsky.app post URL) */
                            quote?: string | null;
                            poll?: {
                                /** @description 2 to 4 options of 1 to 25 characters */
                                options: string[];
                                /** @description LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere */
                                question?: string;
                            } | null;
                            /** @description Up to 3 language tags (en, pt-BR); BLUESKY only, accepted elsewhere */
                            langs?: string[];
                            /** @description 1 to 500 characters; accepted and ignored on THREADS and BLUESKY */
                            contentWarning?: string | null;
                        }[];
                        /**
                         * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                         * @example 2026-12-01T09:30:00
                         * @example 2026-12-01T09:30:00+01:00
                         */
                        scheduleAt?: string;
                        /** @description true: schedule at the provider's next free time slot (without scheduleAt) */
                        queue?: boolean;
                        autoRepost?: {
                            enabled: boolean;
                            delays?: string[];
                        };
                        /** @description The thread's tags by name, as Set Thread Tags takes them: trimmed, matched case-insensitively, missing ones created; at most 50 */
                        tags?: string[];
                        teamId?: string;
                        repeat?: {
                            /** @description 1 to 365 */
                            every: number;
                            /** @description day, week or month */
                            unit: string;
                            /** @description YYYY-MM-DD in the account zone: no occurrence on a later date; not before the first occurrence */
                            until?: string;
                            /** @description Occurrences in all, the first included: 2 to 100 */
                            count?: number;
                        } | null;
                        /** @description Who may reply to the thread; default everyone */
                        replyControl?: "everyone" | "following" | "followers" | "mentioned" | "nobody";
                        /** @description BLUESKY: no one may quote the posts (a postgate on each); default false */
                        quotesDisabled?: boolean;
                    }[];
                    "text/csv": string;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Threads created (dry run: that would be created) */
                            created: number;
                            threads: {
                                /** @description The body's index (JSON), or the CSV data row of the thread's first post (from 0) */
                                row: number;
                                /** @description null in a dry run */
                                threadId: string | null;
                                status: "scheduled" | "draft";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                scheduledAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Threads created (dry run: that would be created) */
                            created: number;
                            threads: {
                                /** @description The body's index (JSON), or the CSV data row of the thread's first post (from 0) */
                                row: number;
                                /** @description null in a dry run */
                                threadId: string | null;
                                status: "scheduled" | "draft";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                scheduledAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the tags of a workspace, sorted by name */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tags: {
                                /** @description Opaque identifier */
                                id: string;
                                name: string;
                                color: string;
                                teamId: string | null;
                                /** @description Opaque identifier */
                                createdBy: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A thread's tags */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            threadId: string;
                            tags: {
                                /** @description Opaque identifier */
                                id: string;
                                name: string;
                                color: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        /** Replace a thread's tags with exactly this set (missing tags are created) */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        tagNames: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            threadId: string;
                            tags: {
                                /** @description Opaque identifier */
                                id: string;
                                name: string;
                                color: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            email: string;
                            timezone: string;
                            activeTeamId: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change time zone or active workspace */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        timezone?: string;
                        activeTeamId?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            email: string;
                            timezone: string;
                            activeTeamId: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API keys of the account (never their values) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                /** @description Opaque identifier */
                                id: string;
                                name: string;
                                last4: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                lastUsedAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Create an API key; its value is shown in this response only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            key: string;
                            name: string;
                            last4: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key (effective on the next request) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            revoked: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auto-plug": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's auto-plug setting */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            enabled: boolean;
                            text: string;
                            minLikes: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        /** Set the workspace's auto-plug */
        put: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled: boolean;
                        text: string;
                        minLikes: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            enabled: boolean;
                            text: string;
                            minLikes: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with email and password; sets the session cookie */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                /** @description Opaque identifier */
                                id: string;
                                email: string;
                                timezone: string;
                                activeTeamId: string | null;
                            };
                            /** @description Send it as X-CSRF-Token on every state change signed in by the cookie; null for an API key */
                            csrfToken: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the session of the cookie (needs X-CSRF-Token while it is live) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            signedOut: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who is signed in, and the CSRF token of the session */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                /** @description Opaque identifier */
                                id: string;
                                email: string;
                                timezone: string;
                                activeTeamId: string | null;
                            };
                            /** @description Send it as X-CSRF-Token on every state change signed in by the cookie; null for an API key */
                            csrfToken: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set the password with a one-time sign-in link (valid 24 h) and sign in */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                /** @description Opaque identifier */
                                id: string;
                                email: string;
                                timezone: string;
                                activeTeamId: string | null;
                            };
                            /** @description Send it as X-CSRF-Token on every state change signed in by the cookie; null for an API key */
                            csrfToken: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change the password; ends the account's other sessions */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        currentPassword: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                /** @description Opaque identifier */
                                id: string;
                                email: string;
                                timezone: string;
                                activeTeamId: string | null;
                            };
                            /** @description Send it as X-CSRF-Token on every state change signed in by the cookie; null for an API key */
                            csrfToken: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Teams of the calling account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            teams: {
                                /** @description Opaque identifier */
                                id: string;
                                name: string;
                                /** @description viewer < writer < editor < admin < owner */
                                role: "viewer" | "writer" | "editor" | "admin" | "owner";
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Connected accounts of a workspace */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            providers: {
                                /** @description Opaque identifier */
                                id: string;
                                provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                                providerUserId: string;
                                username: string;
                                teamId: string | null;
                                status: "ACTIVE" | "EXPIRED" | "REVOKED";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                connectedAt: string;
                                limits: {
                                    /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                    textPerPost: number;
                                    postsPerThread: number;
                                    mediaPerPost: number;
                                    imagesPerPost: number;
                                    videosPerPost: number;
                                    imageBytes: number;
                                    videoBytes: number;
                                    /** @description null: the network sets no length */
                                    videoSeconds: number | null;
                                };
                                /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                                charactersReservedPerUrl: number | null;
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/threads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect a Threads account with an access token (no redirect: for a server Meta cannot reach)
         * @description The account is the one the token belongs to (read from Meta). A short-lived token is exchanged for a 60-day one when THREADS_APP_SECRET is set; a long-lived one is kept. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A Threads user access token, e.g. from the User Token Generator of your Meta app's Threads use case */
                        accessToken: string;
                        teamId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/bluesky": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Connect a Bluesky account with an app password (one login; the session is kept) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Handle, email or DID */
                        identifier: string;
                        /** @description An app password (Settings → App passwords), not the account password */
                        appPassword: string;
                        /** @description PDS or entryway URL; default BLUESKY_SERVICE_URL */
                        service?: string;
                        teamId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/mastodon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect a Mastodon account with an access token made on its server (for scripts)
         * @description The account is the one the token belongs to (verify_credentials). The same account again in the same workspace is a reconnect: the same provider, the new token, 200.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The Mastodon server: mastodon.social or https://mastodon.social (any server) */
                        instance: string;
                        /** @description A token with the scopes read write:statuses write:media (Preferences → Development → New application) */
                        accessToken: string;
                        teamId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/x": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect an X account with a user access token (for scripts; no sign-in page)
         * @description The account is the one the token belongs to (X's users/me). With a refresh token (made by this server's X app, X_CLIENT_ID), Skein refreshes at once and keeps the new pair: the refresh token given dies. Without one, the access token lasts about 2 hours and the account then needs a reconnect. X's refusal is a 400 at the field X refused. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description An OAuth 2.0 user access token with the scopes tweet.read tweet.write users.read media.write offline.access */
                        accessToken: string;
                        /** @description Its refresh token (scope offline.access), from this server's X app */
                        refreshToken?: string;
                        teamId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/linkedin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect a LinkedIn member, or a page it administers, with an access token
         * @description The member is the one the token belongs to (LinkedIn's userinfo); with `organization`, the page instead, which the token must administer (LinkedIn's organizationAcls, ADMINISTRATOR). The token is kept with a 60-day expiry, the longest a LinkedIn token lives. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A LinkedIn member access token with w_member_social (and w_organization_social r_organization_social for a page), e.g. from the OAuth token generator of your LinkedIn app */
                        accessToken: string;
                        /** @description A page the token administers: urn:li:organization:12345 or 12345; absent: the member */
                        organization?: string;
                        teamId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/threads/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the server's settings allow for connecting Threads: what Meta's sign-in still needs, the redirect URL to register, the guide */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            oauthReady: boolean;
                            missing: {
                                setting: "THREADS_APP_ID" | "THREADS_APP_SECRET" | "PUBLIC_URL";
                                message: string;
                            }[];
                            redirectUri: string;
                            exchangesTokens: boolean;
                            guideUrl: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/x/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the server's settings allow for connecting X: what X's sign-in still needs, the callback URL to register, the guide */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            oauthReady: boolean;
                            missing: {
                                setting: "X_CLIENT_ID" | "PUBLIC_URL";
                                message: string;
                            }[];
                            redirectUri: string;
                            guideUrl: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{network}/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start connecting an account through its network's sign-in page: open authorizeUrl in a browser
         * @description Every network that connects through its sign-in page (OAuth). The callback is GET /api/v1/providers/:network/callback. Started by the web app (the session cookie), the connect is bound to this browser by the connect cookie; started with an API key, it is confirmed in the web app after the callback. A network this server is not set up for: 409 NETWORK_NOT_CONFIGURED, naming the settings to set.
         */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                    /** @description Opt-in: 'web' makes the callback redirect the browser (303) to the web app's /accounts page with the outcome, instead of answering JSON */
                    returnTo?: "web";
                    /** @description The server, on a network of many servers (MASTODON: required there, as in its POST connect); ignored elsewhere */
                    instance?: string;
                };
                header?: never;
                path: {
                    /** @description A network whose accounts connect through its sign-in page (OAuth), lowercase */
                    network: "threads" | "mastodon" | "x" | "linkedin";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorizeUrl: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/mastodon/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start connecting a Mastodon account on any server: open authorizeUrl in a browser
         * @description Skein registers itself on the server once (kept per server), then sends the browser to the server to approve (OAuth with state and PKCE S256, and `force_login=true`: the server shows its sign-in form, so the person chooses the account). A server that does not answer as Mastodon is a 400 at `instance`. Started by the web app (the session cookie), the connect is bound to this browser by the connect cookie; started with an API key, it is confirmed in the web app after the callback. The same as GET /api/v1/providers/mastodon/connect?instance=…
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The Mastodon server: mastodon.social or https://mastodon.social (any server) */
                        instance: string;
                        teamId?: string;
                        /**
                         * @description Opt-in: 'web' makes the callback redirect the browser (303) to the web app's /accounts page with the outcome, instead of answering JSON
                         * @enum {string}
                         */
                        returnTo?: "web";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorizeUrl: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{network}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The network's redirect after the user approved Skein (no API key: the state identifies the request)
         * @description Honoured only in the browser that started the connect (its connect cookie); any other browser gets 403 CONNECT_REFUSED (an HTML page when it asks for HTML) and nothing is connected. A connect started with an API key is sent on (303) to the web app to be confirmed by the signed-in user of its account. A network this server is not set up for (its settings) is 409 NETWORK_NOT_CONFIGURED.
         */
        get: {
            parameters: {
                query?: {
                    code?: string;
                    state?: string;
                    error?: string;
                    error_description?: string;
                };
                header?: never;
                path: {
                    /** @description A network whose accounts connect through its sign-in page (OAuth), lowercase */
                    network: "threads" | "mastodon" | "x" | "linkedin";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        } | {
                            /** @description Names the pick in GET and POST /api/v1/providers/connect/picks/{id} */
                            pickId: string;
                            network: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            expiresAt: string;
                            /** @description In the order offered: the member first, then each page */
                            accounts: {
                                providerUserId: string;
                                username: string;
                            }[];
                        };
                    };
                };
                /** @description A connect started with returnTo=web: to /accounts?<network>=connected&username=U (or, when the sign-in offered several accounts, /accounts?<network>=pick&pick=P), or /accounts?<network>=error&code=C&message=M after a failure. A connect started with an API key: to /connect/confirm?network=<network>&state=S, with the connect cookie */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/connect/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a sign-in connect started with an API key (the web app, signed in, in the browser the network sent back)
         * @description The callback of a connect started with an API key sends the browser to the web app's /connect/confirm page with the state and a connect cookie. There the signed-in user of the account that started it confirms it: only with that session (not a key), that browser's connect cookie and within 10 minutes of the callback; anything else is 403 CONNECT_REFUSED and the state is used up.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        state: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        } | {
                            /** @description Names the pick in GET and POST /api/v1/providers/connect/picks/{id} */
                            pickId: string;
                            network: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            expiresAt: string;
                            /** @description In the order offered: the member first, then each page */
                            accounts: {
                                providerUserId: string;
                                username: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/connect/picks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The accounts a sign-in offered (LinkedIn: the member and each page it administers), for the user who connected to pick from
         * @description Live for 15 minutes after the callback, for the Skein account that connected only (another, or an expired or used pick: 404). No tokens.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A sign-in that gave several accounts adds none at once: the user picks the ones to add (POST /api/v1/providers/connect/picks/{id}) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Names the pick in GET and POST /api/v1/providers/connect/picks/{id} */
                            pickId: string;
                            network: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            expiresAt: string;
                            /** @description In the order offered: the member first, then each page */
                            accounts: {
                                providerUserId: string;
                                username: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add the offered accounts the user picked; the others are forgotten
         * @description Each picked account becomes a provider in the workspace the connect was started in (an account connected before is reconnected). An account the sign-in did not offer: 400 at providerUserIds.N, nothing added and the pick kept. A pick is used once.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The offered accounts to add (their providerUserId); the others are forgotten */
                        providerUserIds: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            providers: {
                                /** @description Opaque identifier */
                                id: string;
                                provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                                providerUserId: string;
                                username: string;
                                teamId: string | null;
                                status: "ACTIVE" | "EXPIRED" | "REVOKED";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                connectedAt: string;
                                limits: {
                                    /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                    textPerPost: number;
                                    postsPerThread: number;
                                    mediaPerPost: number;
                                    imagesPerPost: number;
                                    videosPerPost: number;
                                    imageBytes: number;
                                    videoBytes: number;
                                    /** @description null: the network sets no length */
                                    videoSeconds: number | null;
                                };
                                /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                                charactersReservedPerUrl: number | null;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Disconnect an account (its credentials are forgotten) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                            providerUserId: string;
                            username: string;
                            teamId: string | null;
                            status: "ACTIVE" | "EXPIRED" | "REVOKED";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            connectedAt: string;
                            limits: {
                                /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                textPerPost: number;
                                postsPerThread: number;
                                mediaPerPost: number;
                                imagesPerPost: number;
                                videosPerPost: number;
                                imageBytes: number;
                                videoBytes: number;
                                /** @description null: the network sets no length */
                                videoSeconds: number | null;
                            };
                            /** @description MASTODON: what a link counts as in the server's count of a status's text; null for the other networks */
                            charactersReservedPerUrl: number | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/networks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each network's facts: its name, limits, the network options it takes and how an account of it is connected */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            networks: {
                                kind: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                                /** @description As people write it: Threads, Bluesky, Mastodon */
                                name: string;
                                limits: {
                                    /** @description What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere */
                                    textPerPost: number;
                                    postsPerThread: number;
                                    mediaPerPost: number;
                                    imagesPerPost: number;
                                    videosPerPost: number;
                                    imageBytes: number;
                                    videoBytes: number;
                                    /** @description null: the network sets no length */
                                    videoSeconds: number | null;
                                };
                                /** @description The network options it takes (one it accepts and ignores is not listed) */
                                options: ("replyControl" | "quotesDisabled" | "quote" | "poll" | "langs" | "contentWarning")[];
                                /** @description How an account of it is connected */
                                connect: ("oauth" | "token" | "appPassword")[];
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/time-slots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the time slots of a workspace's providers, by provider, day and time */
        get: {
            parameters: {
                query?: {
                    /** @description Only this provider’s slots */
                    providerId?: string;
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            timeSlots: {
                                /** @description Opaque identifier */
                                id: string;
                                /** @description Opaque identifier */
                                providerId: string;
                                /** @description ISO day of week: Monday = 1 … Sunday = 7 */
                                dayOfWeek: number;
                                /**
                                 * @description Local time HH:mm (24 h)
                                 * @example 09:30
                                 */
                                time: string;
                                /** @description IANA time zone the time is read in */
                                timezone: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Add a weekly posting time to a provider */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        providerId: string;
                        /** @description ISO day of week: Monday = 1 … Sunday = 7 */
                        dayOfWeek: number;
                        /**
                         * @description Local time HH:mm (24 h)
                         * @example 09:30
                         */
                        time: string;
                        /**
                         * @description IANA time zone; default: the account’s zone now (stored with the slot)
                         * @example Europe/Berlin
                         */
                        timezone?: string;
                        /** @description A team id, or "personal"; omitted = the account's active workspace */
                        teamId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            /** @description Opaque identifier */
                            providerId: string;
                            /** @description ISO day of week: Monday = 1 … Sunday = 7 */
                            dayOfWeek: number;
                            /**
                             * @description Local time HH:mm (24 h)
                             * @example 09:30
                             */
                            time: string;
                            /** @description IANA time zone the time is read in */
                            timezone: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/time-slots/next": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A provider's next free time-slot instants after now, within 366 days */
        get: {
            parameters: {
                query: {
                    providerId: string;
                    /**
                     * @description How many instants: a whole number 1–50 (default 5)
                     * @example 5
                     */
                    count?: string;
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            providerId: string;
                            /** @description The next free instants after now, within 366 days, earliest first */
                            slots: string[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/time-slots/free": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every free time-slot instant of the workspace's providers in a range of at most 62 days (a calendar's view, in one request) */
        get: {
            parameters: {
                query: {
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    from: string;
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    to: string;
                    /** @description One provider's slots; omitted = every provider of the workspace */
                    providerId?: string;
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Every free instant of the slots from `from` (or now, if later) to `to`, earliest first */
                            slots: {
                                /** @description Opaque identifier */
                                providerId: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                at: string;
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/time-slots/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a time slot (threads already scheduled stay where they are) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                            /** @description Opaque identifier */
                            id: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move a draft or a scheduled READY thread to its provider's next free time slot */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            /** @description Empty: the thread goes to its provider’s next free time slot */
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            threadId: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            scheduledAt: string;
                            postsUpdated: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A provider's analytics over a range: totals, every day in the account's zone, top posts */
        get: {
            parameters: {
                query: {
                    /** @description The provider whose posts are counted */
                    providerId: string;
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    from: string;
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    to: string;
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                    /**
                     * @description Local days per page: a whole number 1–1000. A page answers its days alone (from, to, totals and topPosts of those days). Without limit and cursor the whole range (at most 366 days) in one answer, as ever (no nextCursor).
                     * @example 100
                     */
                    limit?: string;
                    /** @description The previous page's nextCursor, as given: the next page starts after it (same other parameters) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            providerId: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            from: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            to: string;
                            totals: {
                                posts: number;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                views: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                likes: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                replies: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                reposts: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                quotes: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                shares: number | null;
                            };
                            /** @description Every day of the range in the account’s zone, in order, quiet days included */
                            days: {
                                /** @description A calendar day in the account’s time zone */
                                date: string;
                                posts: number;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                views: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                likes: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                replies: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                reposts: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                quotes: number | null;
                                /** @description Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts */
                                shares: number | null;
                            }[];
                            /** @description By views, then likes (nulls last), then post id */
                            topPosts: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /** @description Opaque identifier */
                                postId: string;
                                permaLink: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                publishedAt: string;
                                views: number | null;
                                likes: number | null;
                                replies: number | null;
                                reposts: number | null;
                                quotes: number | null;
                                shares: number | null;
                            }[];
                            /** @description Pass as cursor for the next page; null on the last page */
                            nextCursor?: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's range at a glance: threads published and failed, its top posts across every account */
        get: {
            parameters: {
                query: {
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    from: string;
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    to: string;
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            from: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            to: string;
                            /** @description The workspace’s threads published in the range (the time its last post went out) */
                            published: number;
                            /** @description The workspace’s FAILED threads scheduled in the range */
                            failed: number;
                            /** @description Across every account of the workspace, as Analytics orders them: by views, then likes (nulls last), then post id */
                            topPosts: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /** @description Opaque identifier */
                                postId: string;
                                permaLink: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                publishedAt: string;
                                views: number | null;
                                likes: number | null;
                                replies: number | null;
                                reposts: number | null;
                                quotes: number | null;
                                shares: number | null;
                                /** @description Opaque identifier */
                                providerId: string;
                                /** @description The post’s text, trimmed, at most 100 characters (a longer one cut to 99 and …); null for one without text */
                                text: string | null;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{id}/followers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A provider's follower count now and one per UTC day over a range (fetched daily) */
        get: {
            parameters: {
                query: {
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    from: string;
                    /** @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm */
                    to: string;
                };
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            providerId: string;
                            /** @description The latest count fetched, whatever the range; null before the first fetch */
                            current: {
                                count: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                fetchedAt: string;
                            } | null;
                            /** @description One count per UTC day, fetched within the range, oldest first; days without a fetch are absent */
                            history: {
                                /** @description The UTC day of the fetch */
                                date: string;
                                count: number;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/analytics/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch the analytics of the thread's published posts from the network now; answers the thread */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            thread: components["schemas"]["Thread"];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/follow-ups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A thread's follow-ups, by dueAt (unscheduled last), then creation */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            followUps: {
                                /** @description Opaque identifier */
                                id: string;
                                /** @description Opaque identifier */
                                threadId: string;
                                text: string;
                                media: {
                                    url: string;
                                    altText: string | null;
                                }[];
                                delayMinutes: number;
                                status: "PENDING" | "PUBLISHING" | "PUBLISHED" | "FAILED";
                                /**
                                 * Format: date-time
                                 * @description Null until the thread's last post is published, then its publishedAt plus delayMinutes
                                 */
                                dueAt: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                publishedAt: string | null;
                                permaLink: string | null;
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Add a reply published delayMinutes after the thread's last post (at most 10 per thread) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The reply's text (the thread's network's content rules apply) */
                        text: string;
                        /** @description Minutes after the thread's last post is published: 5 to 10,080 (7 days) */
                        delayMinutes: number;
                        /** @description Up to 20 items; each network allows fewer (content rules) */
                        media?: {
                            /** @description Public http(s) image URL */
                            url: string;
                            altText?: string | null;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            /** @description Opaque identifier */
                            threadId: string;
                            text: string;
                            media: {
                                url: string;
                                altText: string | null;
                            }[];
                            delayMinutes: number;
                            status: "PENDING" | "PUBLISHING" | "PUBLISHED" | "FAILED";
                            /**
                             * Format: date-time
                             * @description Null until the thread's last post is published, then its publishedAt plus delayMinutes
                             */
                            dueAt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            publishedAt: string | null;
                            permaLink: string | null;
                            error: {
                                code: string;
                                message: string;
                            } | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/follow-ups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a follow-up (Skein's record only; a published reply stays on the network) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            deleted: true;
                            /** @description Opaque identifier */
                            id: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{threadId}/follow-ups/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish a FAILED follow-up again, now or at scheduleAt */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    threadId: string;
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                         * @example 2026-12-01T09:30:00
                         * @example 2026-12-01T09:30:00+01:00
                         */
                        scheduleAt?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            /** @description Opaque identifier */
                            threadId: string;
                            text: string;
                            media: {
                                url: string;
                                altText: string | null;
                            }[];
                            delayMinutes: number;
                            status: "PENDING" | "PUBLISHING" | "PUBLISHED" | "FAILED";
                            /**
                             * Format: date-time
                             * @description Null until the thread's last post is published, then its publishedAt plus delayMinutes
                             */
                            dueAt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            publishedAt: string | null;
                            permaLink: string | null;
                            error: {
                                code: string;
                                message: string;
                            } | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's webhooks (no secrets) */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            webhooks: {
                                /** @description Opaque identifier */
                                id: string;
                                url: string;
                                events: ("post.published" | "thread.published" | "thread.failed" | "follow_up.published" | "follow_up.failed" | "provider.expired" | "thread.scheduled" | "thread.approval_requested" | "thread.approved" | "thread.rejected" | "comment.created" | "ping")[];
                                /** @description Null for the personal workspace */
                                teamId: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Add a webhook to a workspace: its events are POSTed, signed, to url (the secret is shown only in this answer) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description https (or http); its host must resolve to public addresses only (checked again at each send)
                         * @example https://example.com/hooks/skein
                         */
                        url: string;
                        /** @description The event types to send, each once */
                        events: ("post.published" | "thread.published" | "thread.failed" | "follow_up.published" | "follow_up.failed" | "provider.expired" | "thread.scheduled" | "thread.approval_requested" | "thread.approved" | "thread.rejected" | "comment.created" | "ping")[];
                        /** @description A team id, or "personal"; omitted = the account's active workspace */
                        teamId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            url: string;
                            events: ("post.published" | "thread.published" | "thread.failed" | "follow_up.published" | "follow_up.failed" | "provider.expired" | "thread.scheduled" | "thread.approval_requested" | "thread.approved" | "thread.rejected" | "comment.created" | "ping")[];
                            /** @description The signing secret (`whsec_…`), shown only in this answer */
                            secret: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook (its pending deliveries are dropped) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            deleted: true;
                            /** @description Opaque identifier */
                            id: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a ping event for this webhook; it is sent (and retried) like any event */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            /** @description Empty: a `ping` event is queued for this webhook */
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            eventId: string;
                            /** @enum {string} */
                            type: "ping";
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's delivery attempts, newest first: the latest 100, or pages of limit (cursor: the previous page's nextCursor) */
        get: {
            parameters: {
                query?: {
                    /**
                     * @description Attempts per page: a whole number 1–1000. Without limit and cursor: the latest 100, as ever; nextCursor is then given only when there are older ones.
                     * @example 100
                     */
                    limit?: string;
                    /** @description The previous page's nextCursor, as given: the next page starts after it (same other parameters) */
                    cursor?: string;
                };
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Newest first (by at, then attempt id): the latest 100 without limit, or one page */
                            deliveries: {
                                /** @description Opaque identifier */
                                eventId: string;
                                type: string;
                                /** @description 1 for the first attempt of this event to this webhook */
                                attempt: number;
                                status: "DELIVERED" | "FAILED";
                                /** @description The HTTP status answered; null when none came in time */
                                responseStatus: number | null;
                                /** @description Why the attempt failed */
                                error: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                at: string;
                            }[];
                            /** @description The attempts in this answer */
                            count: number;
                            /** @description Pass as cursor for the next page; null on the last page */
                            nextCursor?: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's uploads, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Newest first */
                            media: {
                                /** @description The upload id: 22 characters, 128 random bits (base64url) */
                                id: string;
                                /** @description `<PUBLIC_URL>/media/<id>.<ext>`: public (no key), what a post's `media[].url` names */
                                url: string;
                                type: "IMAGE" | "VIDEO";
                                /**
                                 * @example image/jpeg
                                 * @example video/mp4
                                 */
                                mimeType: string;
                                bytes: number;
                                width: number | null;
                                height: number | null;
                                /** @description Videos only; null for images */
                                durationMs: number | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Upload one image (JPEG, PNG, WebP, GIF: 8 MiB, 50 megapixels) or video (MP4, MOV: 1 GiB): the raw bytes as the body, or multipart/form-data with one part named file. The kind is read from the bytes. */
        post: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The upload id: 22 characters, 128 random bits (base64url) */
                            id: string;
                            /** @description `<PUBLIC_URL>/media/<id>.<ext>`: public (no key), what a post's `media[].url` names */
                            url: string;
                            type: "IMAGE" | "VIDEO";
                            /**
                             * @example image/jpeg
                             * @example video/mp4
                             */
                            mimeType: string;
                            bytes: number;
                            width: number | null;
                            height: number | null;
                            /** @description Videos only; null for images */
                            durationMs: number | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One upload */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The upload id: 22 characters, 128 random bits (base64url) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The upload id: 22 characters, 128 random bits (base64url) */
                            id: string;
                            /** @description `<PUBLIC_URL>/media/<id>.<ext>`: public (no key), what a post's `media[].url` names */
                            url: string;
                            type: "IMAGE" | "VIDEO";
                            /**
                             * @example image/jpeg
                             * @example video/mp4
                             */
                            mimeType: string;
                            bytes: number;
                            width: number | null;
                            height: number | null;
                            /** @description Videos only; null for images */
                            durationMs: number | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an upload (409 MEDIA_IN_USE while a thread or follow-up not yet published uses it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The upload id: 22 characters, 128 random bits (base64url) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            deleted: true;
                            /** @description The upload id: 22 characters, 128 random bits (base64url) */
                            id: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/media/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An upload's bytes, for anyone with its url (the networks fetch it): ETag, immutable caching, Range */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description `<id>.<ext>`, as in the upload's url */
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The stored bytes (or the range asked for) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description The stored bytes (or the range asked for) */
                206: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
                /** @description If-None-Match matched */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                416: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/from-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload the file at a public http(s) URL (fetched under the media address policy: private addresses refused, redirects checked), stored and checked as an upload of the same bytes */
        post: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A public http(s) URL of an image or video */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The upload id: 22 characters, 128 random bits (base64url) */
                            id: string;
                            /** @description `<PUBLIC_URL>/media/<id>.<ext>`: public (no key), what a post's `media[].url` names */
                            url: string;
                            type: "IMAGE" | "VIDEO";
                            /**
                             * @example image/jpeg
                             * @example video/mp4
                             */
                            mimeType: string;
                            bytes: number;
                            width: number | null;
                            height: number | null;
                            /** @description Videos only; null for images */
                            durationMs: number | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/attention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What needs the user now, newest first: failed threads and follow-ups, expired or revoked accounts, due threads on them */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                    /**
                     * @description Items per page: a whole number 1–1000. Without limit and cursor every item is answered (no nextCursor) while there are at most 1000; more is a 400 at limit.
                     * @example 100
                     */
                    limit?: string;
                    /** @description The previous page's nextCursor, as given: the next page starts after it (same other parameters) */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Newest first (by at; then kind, the thread’s or account’s id, the follow-up’s id, byte order) */
                            items: {
                                /** @description THREAD_FAILED and FOLLOW_UP_FAILED (with error), PROVIDER_EXPIRED, PROVIDER_EXPIRING (an ACTIVE account whose token runs out within its network notice period (LinkedIn: 7 days) and cannot be refreshed), PROVIDER_REVOKED, PROVIDER_NOT_ACTIVE_FOR_DUE (a thread due within 24 h on an account that is not ACTIVE), PROVIDER_RATE_LIMITED (with error: a thread put back until the 24-hour posting cap of its account resets), THREAD_AWAITING_APPROVAL (a thread past its time still waiting for approval: it waits) */
                                kind: "THREAD_FAILED" | "FOLLOW_UP_FAILED" | "PROVIDER_EXPIRED" | "PROVIDER_EXPIRING" | "PROVIDER_REVOKED" | "PROVIDER_NOT_ACTIVE_FOR_DUE" | "PROVIDER_RATE_LIMITED" | "THREAD_AWAITING_APPROVAL";
                                /**
                                 * Format: date-time
                                 * @description When it happened: a failure's time, the account's change of status; for PROVIDER_EXPIRING when its token runs out; for PROVIDER_NOT_ACTIVE_FOR_DUE the thread's scheduled time; for PROVIDER_RATE_LIMITED when the thread was put back
                                 */
                                at: string;
                                /** @description Opaque identifier */
                                providerId: string;
                                /** @description Opaque identifier */
                                threadId?: string;
                                /** @description Opaque identifier */
                                followUpId?: string;
                                /** @description Added beyond decisions.md: the thread's first post's text, trimmed, at most 100 characters (a longer one cut to 99 and …), to name the thread; absent without a thread or a text */
                                threadText?: string;
                                /** @description The network's error as stored (THREAD_FAILED: its failed post's; FOLLOW_UP_FAILED: the follow-up's; PROVIDER_RATE_LIMITED: the cap's, saying until when) */
                                error?: {
                                    code: string;
                                    message: string;
                                };
                            }[];
                            /** @description The items in this answer (this page, when paged) */
                            count: number;
                            /** @description Pass as cursor for the next page; null on the last page */
                            nextCursor?: string | null;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling user's email notifications */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: {
                                /** @description false when the server has no SKEIN_SMTP_URL: nothing is sent */
                                enabled: boolean;
                                from: string | null;
                                /** @description the account's email address */
                                to: string;
                            };
                            kinds: {
                                /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                                THREAD_FAILED: "immediate" | "daily" | "off";
                                /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                                FOLLOW_UP_FAILED: "immediate" | "daily" | "off";
                                /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                                PROVIDER_EXPIRED: "immediate" | "daily" | "off";
                                /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                                PROVIDER_REVOKED: "immediate" | "daily" | "off";
                                /** @description a team's thread waits for approval (to its editors, admins and owner) */
                                APPROVAL_REQUESTED: "immediate" | "daily" | "off";
                                /** @description a thread you asked approval for was rejected (with the note) */
                                THREAD_REJECTED: "immediate" | "daily" | "off";
                                /** @description a thread you asked approval for was approved */
                                THREAD_APPROVED: "immediate" | "daily" | "off";
                                /** @description a comment mentions you (`@` your email) */
                                COMMENT_MENTION: "immediate" | "daily" | "off";
                            };
                            /** @description the daily digest of the day's outcomes (published, failed, expired) */
                            digest: boolean;
                            /** @enum {string} */
                            digestAt: "08:00";
                            timezone: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change which email notifications the calling user gets (the kinds and the digest given; the rest unchanged) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        kinds?: {
                            /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                            THREAD_FAILED?: "immediate" | "daily" | "off";
                            /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                            FOLLOW_UP_FAILED?: "immediate" | "daily" | "off";
                            /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                            PROVIDER_EXPIRED?: "immediate" | "daily" | "off";
                            /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                            PROVIDER_REVOKED?: "immediate" | "daily" | "off";
                            /** @description a team's thread waits for approval (to its editors, admins and owner) */
                            APPROVAL_REQUESTED?: "immediate" | "daily" | "off";
                            /** @description a thread you asked approval for was rejected (with the note) */
                            THREAD_REJECTED?: "immediate" | "daily" | "off";
                            /** @description a thread you asked approval for was approved */
                            THREAD_APPROVED?: "immediate" | "daily" | "off";
                            /** @description a comment mentions you (`@` your email) */
                            COMMENT_MENTION?: "immediate" | "daily" | "off";
                        };
                        digest?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: {
                                /** @description false when the server has no SKEIN_SMTP_URL: nothing is sent */
                                enabled: boolean;
                                from: string | null;
                                /** @description the account's email address */
                                to: string;
                            };
                            kinds: {
                                /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                                THREAD_FAILED: "immediate" | "daily" | "off";
                                /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                                FOLLOW_UP_FAILED: "immediate" | "daily" | "off";
                                /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                                PROVIDER_EXPIRED: "immediate" | "daily" | "off";
                                /** @description `immediate`: an email at once; `daily`: a line in the daily digest; `off`: none */
                                PROVIDER_REVOKED: "immediate" | "daily" | "off";
                                /** @description a team's thread waits for approval (to its editors, admins and owner) */
                                APPROVAL_REQUESTED: "immediate" | "daily" | "off";
                                /** @description a thread you asked approval for was rejected (with the note) */
                                THREAD_REJECTED: "immediate" | "daily" | "off";
                                /** @description a thread you asked approval for was approved */
                                THREAD_APPROVED: "immediate" | "daily" | "off";
                                /** @description a comment mentions you (`@` your email) */
                                COMMENT_MENTION: "immediate" | "daily" | "off";
                            };
                            /** @description the daily digest of the day's outcomes (published, failed, expired) */
                            digest: boolean;
                            /** @enum {string} */
                            digestAt: "08:00";
                            timezone: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/teams/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's members and their roles */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            members: {
                                /** @description Opaque identifier */
                                accountId: string;
                                email: string;
                                /** @description viewer < writer < editor < admin < owner */
                                role: "viewer" | "writer" | "editor" | "admin" | "owner";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Add an account to the team (admin and owner roles: owners only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        /** @description viewer < writer < editor < admin < owner */
                        role: "viewer" | "writer" | "editor" | "admin" | "owner";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            accountId: string;
                            email: string;
                            /** @description viewer < writer < editor < admin < owner */
                            role: "viewer" | "writer" | "editor" | "admin" | "owner";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/{id}/members/{accountId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member from the team (an admin or owner: owners only; the last owner stays) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                    /** @description Opaque identifier */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            accountId: string;
                            removed: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a member's role (to or from admin or owner: owners only; the last owner stays) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                    /** @description Opaque identifier */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description viewer < writer < editor < admin < owner */
                        role: "viewer" | "writer" | "editor" | "admin" | "owner";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            accountId: string;
                            email: string;
                            /** @description viewer < writer < editor < admin < owner */
                            role: "viewer" | "writer" | "editor" | "admin" | "owner";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/review-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A team's review links, newest first (never their tokens) */
        get: {
            parameters: {
                query?: {
                    /** @description A team id, or "personal"; omitted = the account's active workspace */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            reviewLinks: {
                                /** @description Opaque identifier */
                                id: string;
                                /** @description Opaque identifier */
                                teamId: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                from: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                to: string;
                                /** @description The accounts whose threads it shows; null: every account of the team */
                                providerIds: string[] | null;
                                canApprove: boolean;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                expiresAt: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                createdAt: string;
                                /** @description An expired link opens nothing */
                                expired: boolean;
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Create a review link: a page without sign-in of the team's threads in [from, to), for at most 30 days; its url is shown only now */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Opaque identifier */
                        teamId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds and Z
                         */
                        from: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds and Z
                         */
                        to: string;
                        providerIds?: string[] | null;
                        /** @description Whether the reviewer may approve, reject and comment */
                        canApprove: boolean;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds and Z
                         */
                        expiresAt: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            /** @description Opaque identifier */
                            teamId: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            from: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            to: string;
                            /** @description The accounts whose threads it shows; null: every account of the team */
                            providerIds: string[] | null;
                            canApprove: boolean;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            expiresAt: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                            /** @description An expired link opens nothing */
                            expired: boolean;
                            /** @description The page: holds the token (256 random bits) */
                            url: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/review-links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a review link at once: its page shows nothing from the next request on */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Opaque identifier */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            revoked: boolean;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/review/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A review link's threads as each network will show them, with their approval and comments (expired or revoked: 404) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The review link's token (from its url) */
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            team: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            from: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            to: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            expiresAt: string;
                            canApprove: boolean;
                            threads: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                scheduledAt: string | null;
                                status: string;
                                account: {
                                    network: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                                    username: string;
                                };
                                approval: {
                                    state: "PENDING" | "APPROVED" | "REJECTED";
                                    by: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds and Z
                                     */
                                    at: string | null;
                                    note: string | null;
                                } | null;
                                posts: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    text: string;
                                    contentWarning: string | null;
                                    spoilerRanges: {
                                        offset: number;
                                        length: number;
                                    }[];
                                    media: {
                                        url: string;
                                        altText: string | null;
                                        type: "IMAGE" | "VIDEO";
                                    }[];
                                }[];
                                comments: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    author: string;
                                    text: string;
                                    /** @description Opaque identifier */
                                    postId: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds and Z
                                     */
                                    createdAt: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/review/{token}/threads/{threadId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a pending thread of the link, under the reviewer's name (links with canApprove only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The review link's token (from its url) */
                    token: string;
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The reviewer's name, recorded with what they do */
                        name: string;
                        note?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            thread: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                scheduledAt: string | null;
                                status: string;
                                account: {
                                    network: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                                    username: string;
                                };
                                approval: {
                                    state: "PENDING" | "APPROVED" | "REJECTED";
                                    by: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds and Z
                                     */
                                    at: string | null;
                                    note: string | null;
                                } | null;
                                posts: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    text: string;
                                    contentWarning: string | null;
                                    spoilerRanges: {
                                        offset: number;
                                        length: number;
                                    }[];
                                    media: {
                                        url: string;
                                        altText: string | null;
                                        type: "IMAGE" | "VIDEO";
                                    }[];
                                }[];
                                comments: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    author: string;
                                    text: string;
                                    /** @description Opaque identifier */
                                    postId: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds and Z
                                     */
                                    createdAt: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/review/{token}/threads/{threadId}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a pending thread of the link, under the reviewer's name (links with canApprove only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The review link's token (from its url) */
                    token: string;
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The reviewer's name, recorded with what they do */
                        name: string;
                        note?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            thread: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds and Z
                                 */
                                scheduledAt: string | null;
                                status: string;
                                account: {
                                    network: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
                                    username: string;
                                };
                                approval: {
                                    state: "PENDING" | "APPROVED" | "REJECTED";
                                    by: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds and Z
                                     */
                                    at: string | null;
                                    note: string | null;
                                } | null;
                                posts: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    text: string;
                                    contentWarning: string | null;
                                    spoilerRanges: {
                                        offset: number;
                                        length: number;
                                    }[];
                                    media: {
                                        url: string;
                                        altText: string | null;
                                        type: "IMAGE" | "VIDEO";
                                    }[];
                                }[];
                                comments: {
                                    /** @description Opaque identifier */
                                    id: string;
                                    author: string;
                                    text: string;
                                    /** @description Opaque identifier */
                                    postId: string | null;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with milliseconds and Z
                                     */
                                    createdAt: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/review/{token}/threads/{threadId}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Comment on a thread of the link (or one of its posts), under the reviewer's name (links with canApprove only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The review link's token (from its url) */
                    token: string;
                    /** @description Opaque identifier */
                    threadId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The reviewer's name, recorded with what they do */
                        name: string;
                        text: string;
                        postId?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Opaque identifier */
                            id: string;
                            author: string;
                            text: string;
                            /** @description Opaque identifier */
                            postId: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds and Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Model Context Protocol (Streamable HTTP, stateless): the tools of docs/agents.md, with the API key as Bearer
         * @description Each tool is one REST operation of this API, called with the same key. An answer is JSON (never a stream); 202 for a notification. Only an API key opens it (no session cookie).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description One JSON-RPC 2.0 message of the Model Context Protocol (docs/agents.md): a tools/call of one of the tools, or any other message */
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "get_account";
                            arguments: Record<string, never>;
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "list_accounts";
                            arguments: {
                                /** @description A team id, or "personal"; omitted = the account's active workspace */
                                teamId?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "list_networks";
                            arguments: Record<string, never>;
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "list_threads";
                            arguments: {
                                /**
                                 * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                 * @example 2026-12-01T09:30:00
                                 * @example 2026-12-01T09:30:00+01:00
                                 */
                                from: string;
                                /**
                                 * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                 * @example 2026-12-01T09:30:00
                                 * @example 2026-12-01T09:30:00+01:00
                                 */
                                to: string;
                                providerId?: string;
                                /** @description A team id, or "personal"; omitted = the account's active workspace */
                                teamId?: string;
                                approval?: "PENDING" | "APPROVED" | "REJECTED";
                                /** @description Only the threads carrying this tag (a tag of another workspace, or none, matches no thread) */
                                tagId?: string;
                                /**
                                 * @description Opt-in: 'tags' adds each thread's tags (id, name, color) to the answer, read in the same database statement. Without it the answer is unchanged.
                                 * @enum {string}
                                 */
                                include?: "tags";
                                /**
                                 * @description Threads per page: a whole number 1–1000. Without limit and cursor the whole range is answered (no nextCursor) while it holds at most 2000 threads; a range holding more is a 400 at limit.
                                 * @example 100
                                 */
                                limit?: string;
                                /** @description The previous page's nextCursor, as given: the next page starts after it (same other parameters) */
                                cursor?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "get_thread";
                            arguments: {
                                /** @description Opaque identifier */
                                threadId: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "create_thread";
                            arguments: {
                                providerId: string;
                                posts: {
                                    text: string;
                                    topic?: string | null;
                                    /** @description Up to 20 items; each network allows fewer (content rules) */
                                    media?: {
                                        /** @description Public http(s) image URL */
                                        url: string;
                                        altText?: string | null;
                                    }[];
                                    spoilerRanges?: {
                                        /** @description 0-based, in UTF-16 code units */
                                        offset: number;
                                        /** @description In UTF-16 code units, at least 1 */
                                        length: number;
                                    }[];
                                    isSpoilerMedia?: boolean;
                                    /** @description Bluesky: a link card for the first link of a post without media (default true); Threads and Mastodon make their own */
                                    linkPreview?: boolean;
                                    /** @description What the post quotes: the id of a published Skein post of the same network in the workspace, or the network's reference (THREADS: a media id; BLUESKY: an at:// URI or a bsky.app post URL) */
                                    quote?: string | null;
                                    poll?: {
                                        /** @description 2 to 4 options of 1 to 25 characters */
                                        options: string[];
                                        /** @description LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere */
                                        question?: string;
                                    } | null;
                                    /** @description Up to 3 language tags (en, pt-BR); BLUESKY only, accepted elsewhere */
                                    langs?: string[];
                                    /** @description 1 to 500 characters; accepted and ignored on THREADS and BLUESKY */
                                    contentWarning?: string | null;
                                }[];
                                /**
                                 * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                 * @example 2026-12-01T09:30:00
                                 * @example 2026-12-01T09:30:00+01:00
                                 */
                                scheduleAt?: string;
                                /** @description true: schedule at the provider's next free time slot (without scheduleAt) */
                                queue?: boolean;
                                autoRepost?: {
                                    enabled: boolean;
                                    delays?: string[];
                                };
                                /** @description The thread's tags by name, as Set Thread Tags takes them: trimmed, matched case-insensitively, missing ones created; at most 50 */
                                tags?: string[];
                                teamId?: string;
                                repeat?: {
                                    /** @description 1 to 365 */
                                    every: number;
                                    /** @description day, week or month */
                                    unit: string;
                                    /** @description YYYY-MM-DD in the account zone: no occurrence on a later date; not before the first occurrence */
                                    until?: string;
                                    /** @description Occurrences in all, the first included: 2 to 100 */
                                    count?: number;
                                } | null;
                                /** @description Who may reply to the thread; default everyone */
                                replyControl?: "everyone" | "following" | "followers" | "mentioned" | "nobody";
                                /** @description BLUESKY: no one may quote the posts (a postgate on each); default false */
                                quotesDisabled?: boolean;
                                /** @description Optional: the same key with the same arguments never creates twice (kept 24 hours). Without it, one is derived from the tool, its arguments and your API key, so an exact retry creates nothing new. */
                                idempotencyKey?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "edit_thread";
                            arguments: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /** @description The etag get_thread answered (such as "12", quotes included). A thread changed since is refused (PRECONDITION_FAILED): read it again. */
                                etag: string;
                                posts: {
                                    id?: string;
                                    text: string;
                                    topic?: string | null;
                                    /** @description Up to 20 items; each network allows fewer (content rules) */
                                    media?: {
                                        /** @description Public http(s) image URL */
                                        url: string;
                                        altText?: string | null;
                                    }[];
                                    spoilerRanges?: {
                                        /** @description 0-based, in UTF-16 code units */
                                        offset: number;
                                        /** @description In UTF-16 code units, at least 1 */
                                        length: number;
                                    }[];
                                    isSpoilerMedia?: boolean;
                                    /** @description Bluesky: a link card for the first link of a post without media (default true); Threads and Mastodon make their own */
                                    linkPreview?: boolean;
                                    /** @description What the post quotes: the id of a published Skein post of the same network in the workspace, or the network's reference (THREADS: a media id; BLUESKY: an at:// URI or a bsky.app post URL) */
                                    quote?: string | null;
                                    poll?: {
                                        /** @description 2 to 4 options of 1 to 25 characters */
                                        options: string[];
                                        /** @description LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere */
                                        question?: string;
                                    } | null;
                                    /** @description Up to 3 language tags (en, pt-BR); BLUESKY only, accepted elsewhere */
                                    langs?: string[];
                                    /** @description 1 to 500 characters; accepted and ignored on THREADS and BLUESKY */
                                    contentWarning?: string | null;
                                }[];
                                /** @description The thread's tags by name, as Set Thread Tags takes them: trimmed, matched case-insensitively, missing ones created; at most 50 */
                                tags?: string[];
                                /**
                                 * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                 * @example 2026-12-01T09:30:00
                                 * @example 2026-12-01T09:30:00+01:00
                                 */
                                scheduleAt?: string;
                                /** @description true: schedule at the provider's next free time slot (without scheduleAt) */
                                queue?: boolean;
                                repeat?: {
                                    /** @description 1 to 365 */
                                    every: number;
                                    /** @description day, week or month */
                                    unit: string;
                                    /** @description YYYY-MM-DD in the account zone: no occurrence on a later date; not before the first occurrence */
                                    until?: string;
                                    /** @description Occurrences in all, the first included: 2 to 100 */
                                    count?: number;
                                } | null;
                                /** @description Who may reply to the thread; default everyone */
                                replyControl?: "everyone" | "following" | "followers" | "mentioned" | "nobody";
                                /** @description BLUESKY: no one may quote the posts (a postgate on each); default false */
                                quotesDisabled?: boolean;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "reschedule_thread";
                            arguments: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /** @description The etag get_thread answered (such as "12", quotes included). A thread changed since is refused (PRECONDITION_FAILED): read it again. */
                                etag?: string;
                                /**
                                 * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                 * @example 2026-12-01T09:30:00
                                 * @example 2026-12-01T09:30:00+01:00
                                 */
                                scheduleAt: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "delete_thread";
                            arguments: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /** @description The etag get_thread answered (such as "12", quotes included). A thread changed since is refused (PRECONDITION_FAILED): read it again. */
                                etag?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "retry_thread";
                            arguments: {
                                /** @description Opaque identifier */
                                threadId: string;
                                /** @description The etag get_thread answered (such as "12", quotes included). A thread changed since is refused (PRECONDITION_FAILED): read it again. */
                                etag?: string;
                                /**
                                 * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                 * @example 2026-12-01T09:30:00
                                 * @example 2026-12-01T09:30:00+01:00
                                 */
                                scheduleAt?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "list_drafts";
                            arguments: {
                                /** @description A team id, or "personal"; omitted = the account's active workspace */
                                teamId?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "next_slots";
                            arguments: {
                                providerId: string;
                                /**
                                 * @description How many instants: a whole number 1–50 (default 5)
                                 * @example 5
                                 */
                                count?: string;
                                /** @description A team id, or "personal"; omitted = the account's active workspace */
                                teamId?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "upload_media_from_url";
                            arguments: {
                                /** @description A public http(s) URL of an image or video */
                                url: string;
                                /** @description A team id, or "personal"; omitted = the account's active workspace */
                                teamId?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "get_analytics";
                            arguments: {
                                /** @description The provider whose posts are counted */
                                providerId: string;
                                /**
                                 * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                 * @example 2026-12-01T09:30:00
                                 * @example 2026-12-01T09:30:00+01:00
                                 */
                                from: string;
                                /**
                                 * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                 * @example 2026-12-01T09:30:00
                                 * @example 2026-12-01T09:30:00+01:00
                                 */
                                to: string;
                                /** @description A team id, or "personal"; omitted = the account's active workspace */
                                teamId?: string;
                                /**
                                 * @description Local days per page: a whole number 1–1000. A page answers its days alone (from, to, totals and topPosts of those days). Without limit and cursor the whole range (at most 366 days) in one answer, as ever (no nextCursor).
                                 * @example 100
                                 */
                                limit?: string;
                                /** @description The previous page's nextCursor, as given: the next page starts after it (same other parameters) */
                                cursor?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "get_attention";
                            arguments: {
                                /** @description A team id, or "personal"; omitted = the account's active workspace */
                                teamId?: string;
                                /**
                                 * @description Items per page: a whole number 1–1000. Without limit and cursor every item is answered (no nextCursor) while there are at most 1000; more is a 400 at limit.
                                 * @example 100
                                 */
                                limit?: string;
                                /** @description The previous page's nextCursor, as given: the next page starts after it (same other parameters) */
                                cursor?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number;
                        /** @enum {string} */
                        method: "tools/call";
                        params: {
                            /** @enum {string} */
                            name: "import_threads";
                            arguments: {
                                /** @description Create Post bodies, one per thread, up to 1,000 */
                                rows: {
                                    providerId: string;
                                    posts: {
                                        text: string;
                                        topic?: string | null;
                                        /** @description Up to 20 items; each network allows fewer (content rules) */
                                        media?: {
                                            /** @description Public http(s) image URL */
                                            url: string;
                                            altText?: string | null;
                                        }[];
                                        spoilerRanges?: {
                                            /** @description 0-based, in UTF-16 code units */
                                            offset: number;
                                            /** @description In UTF-16 code units, at least 1 */
                                            length: number;
                                        }[];
                                        isSpoilerMedia?: boolean;
                                        /** @description Bluesky: a link card for the first link of a post without media (default true); Threads and Mastodon make their own */
                                        linkPreview?: boolean;
                                        /** @description What the post quotes: the id of a published Skein post of the same network in the workspace, or the network's reference (THREADS: a media id; BLUESKY: an at:// URI or a bsky.app post URL) */
                                        quote?: string | null;
                                        poll?: {
                                            /** @description 2 to 4 options of 1 to 25 characters */
                                            options: string[];
                                            /** @description LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere */
                                            question?: string;
                                        } | null;
                                        /** @description Up to 3 language tags (en, pt-BR); BLUESKY only, accepted elsewhere */
                                        langs?: string[];
                                        /** @description 1 to 500 characters; accepted and ignored on THREADS and BLUESKY */
                                        contentWarning?: string | null;
                                    }[];
                                    /**
                                     * @description YYYY-MM-DDThh:mm:ss, read in the account time zone unless it ends in Z or ±hh:mm
                                     * @example 2026-12-01T09:30:00
                                     * @example 2026-12-01T09:30:00+01:00
                                     */
                                    scheduleAt?: string;
                                    /** @description true: schedule at the provider's next free time slot (without scheduleAt) */
                                    queue?: boolean;
                                    autoRepost?: {
                                        enabled: boolean;
                                        delays?: string[];
                                    };
                                    /** @description The thread's tags by name, as Set Thread Tags takes them: trimmed, matched case-insensitively, missing ones created; at most 50 */
                                    tags?: string[];
                                    teamId?: string;
                                    repeat?: {
                                        /** @description 1 to 365 */
                                        every: number;
                                        /** @description day, week or month */
                                        unit: string;
                                        /** @description YYYY-MM-DD in the account zone: no occurrence on a later date; not before the first occurrence */
                                        until?: string;
                                        /** @description Occurrences in all, the first included: 2 to 100 */
                                        count?: number;
                                    } | null;
                                    /** @description Who may reply to the thread; default everyone */
                                    replyControl?: "everyone" | "following" | "followers" | "mentioned" | "nobody";
                                    /** @description BLUESKY: no one may quote the posts (a postgate on each); default false */
                                    quotesDisabled?: boolean;
                                }[];
                                /** @description true: check and answer as the import would, creating nothing */
                                dryRun?: boolean;
                                teamId?: string;
                                /** @description Optional: the same key with the same arguments never creates twice (kept 24 hours). Without it, one is derived from the tool, its arguments and your API key, so an exact retry creates nothing new. */
                                idempotencyKey?: string;
                            };
                        };
                    } | {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id?: string | number;
                        method?: string;
                        params?: Record<string, never>;
                        result?: Record<string, never>;
                        error?: {
                            code: number;
                            message: string;
                        };
                    };
                };
            };
            responses: {
                /** @description The JSON-RPC answer: result (a tool refusal is a result with isError) or error */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            jsonrpc: "2.0";
                            id: (string | number) | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description A notification, taken */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 9457 problem details */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                406: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description RFC 9457 problem details */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description RFC 9457 problem details */
        Problem: {
            type: string;
            title: string;
            status: number;
            detail: string;
            code: string;
            errors?: {
                path: string;
                message: string;
            }[];
            /** @description FORBIDDEN: the least team role that may make the request */
            neededRole?: string;
        };
        Thread: {
            /** @description Opaque identifier */
            threadId: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds and Z
             */
            scheduledAt: string | null;
            provider: "THREADS" | "BLUESKY" | "MASTODON" | "X" | "LINKEDIN";
            providerUserId: string;
            status: "READY" | "PUBLISHING" | "PUBLISHED" | "FAILED";
            /** @description Who may reply to the thread; default everyone */
            replyControl: "everyone" | "following" | "followers" | "mentioned" | "nobody";
            quotesDisabled: boolean;
            /** @description The repeat rule; on the waiting occurrence of a series only, null otherwise */
            repeat: {
                every: number;
                unit: "day" | "week" | "month";
                until: string | null;
                count: number | null;
            } | null;
            /** @description The series of a recurring thread (its id is the first occurrence's threadId), or null */
            series: {
                /** @description Opaque identifier */
                id: string;
                /** @description From 1 */
                occurrence: number;
            } | null;
            approval: {
                state: "PENDING" | "APPROVED" | "REJECTED";
                /** @description The deciding member's email, or a review link's reviewer name */
                by: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC with milliseconds and Z
                 */
                at: string | null;
                note: string | null;
            } | null;
            posts: {
                /** @description Opaque identifier */
                id: string;
                content: string;
                postOrder: number;
                images: string[];
                topic: string | null;
                postMedia: {
                    /** @description Opaque identifier */
                    id: string;
                    url: string;
                    altText: string | null;
                    type: "IMAGE" | "VIDEO";
                }[];
                spoilerRanges: {
                    /** @description 0-based, in UTF-16 code units */
                    offset: number;
                    /** @description In UTF-16 code units, at least 1 */
                    length: number;
                }[];
                isSpoilerMedia: boolean;
                linkPreview: boolean;
                quote: string | null;
                /** @description A post without media (LINKEDIN: the first post only) */
                poll: {
                    /** @description 2 to 4 options of 1 to 25 characters */
                    options: string[];
                    /** @description LINKEDIN (required there): the question, 1 to 140 characters; ignored elsewhere */
                    question?: string;
                } | null;
                langs: string[];
                contentWarning: string | null;
                status: "READY" | "PUBLISHING" | "PUBLISHED" | "FAILED";
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC with milliseconds and Z
                 */
                publishedAt: string | null;
                permaLink: string | null;
                autoRepostDelay: string[];
                analytics: {
                    views: number | null;
                    likes: number | null;
                    replies: number | null;
                    reposts: number | null;
                    quotes: number | null;
                    shares: number | null;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with milliseconds and Z
                     */
                    fetchedAt: string;
                } | null;
                error: {
                    code: string;
                    message: string;
                } | null;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
