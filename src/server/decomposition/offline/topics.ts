import type { Family, Tech } from "./tech";

/** One command → event → read model chain of the event model; {E} / {Es} stand for the entity name. */
export type Flow = {
  command: string;
  event: string;
  readModel: string;
  by: "user" | "system";
  trigger?: string;
};

/** A well-known feature theme: how to recognise it and the vocabulary to plan it with. */
export type Topic = {
  id: string;
  match: RegExp;
  /** Only recognised for these families (hardware words mean little in a web app). */
  families?: readonly Family[];
  label: string;
  entity: string;
  /** Use the topic's entity even when the phrase names an object ("pay with Stripe" -> Payment). */
  strong: boolean;
  /** Whether the entity gets its own table/collection. */
  persist: boolean;
  weight: number;
  /** Extra complexity the theme brings to the whole project (integrations, security, concurrency). */
  risk: number;
  riskName?: string;
  /** The theme implies user accounts. */
  accounts: boolean;
  /** Verb for user stories when the feature is a noun phrase ("leave" reviews, "receive" notifications). */
  nounVerb: string;
  actor?: string;
  scope: (t: Tech) => string;
  hint: (t: Tech) => string;
  integration?: (t: Tech) => { text: string; details: string };
  flows: readonly Flow[];
  benefit: string;
  criteria: readonly string[];
  practice?: (t: Tech) => string;
};

const userFacing = (t: Tech) => t.family !== "iot" && t.family !== "automation" && t.family !== "data";

export const TOPICS: readonly Topic[] = [
  {
    id: "payments",
    match:
      /\b(pay|pays|paying|payments?|stripe|paypal|billing|invoices?|invoicing|paid (plans?|subscriptions?)|subscription (plans?|billing|payments?)|premium plans?|checkout|refunds?|donations?)\b/i,
    label: "Payments",
    entity: "Payment",
    strong: true,
    persist: true,
    weight: 9,
    risk: 1,
    riskName: "payments",
    accounts: true,
    nounVerb: "use",
    scope: (t) => `checkout, ${t.payments} webhooks, receipts and refunds`,
    hint: (t) =>
      `Use ${t.payments}-hosted checkout so card data never reaches your servers, and treat the webhook, not the redirect, as the source of truth.`,
    integration: (t) => ({
      text: `Integrate ${t.payments} checkout and verify webhook signatures`,
      details: `Create checkout sessions server-side, store the provider's payment id, and process completed, failed and refunded webhooks idempotently by recording each event id. Test with the provider's sandbox and CLI webhook forwarding.`,
    }),
    flows: [
      { command: "StartCheckout", event: "CheckoutStarted", readModel: "CheckoutSummary", by: "user" },
      {
        command: "CapturePayment",
        event: "PaymentCaptured",
        readModel: "PaymentHistory",
        by: "system",
        trigger: "the payment provider confirms the charge",
      },
      { command: "RefundPayment", event: "PaymentRefunded", readModel: "PaymentHistory", by: "user" },
    ],
    benefit: "I can pay securely without leaving the app",
    criteria: [
      "Given a valid card, when I confirm the payment, then I see a confirmation and receive a receipt",
      "Given a declined card, when I pay, then I see why it failed and can retry with another method",
      "Given the provider reports the same payment twice, when the webhook is processed, then it is recorded only once",
    ],
    practice: (t) =>
      `Keep card data off your servers: use ${t.payments}-hosted checkout, verify webhook signatures and make webhook handling idempotent.`,
  },
  {
    id: "multiplayer",
    match: /\b(multiplayer|multi-player|online play|matchmaking|co-?op|pvp|lobby|lobbies)\b/i,
    label: "Online multiplayer",
    entity: "Match",
    strong: true,
    persist: true,
    weight: 10,
    risk: 1.5,
    riskName: "online multiplayer",
    accounts: true,
    nounVerb: "play",
    scope: (t) => `lobbies, state sync with ${t.net} and disconnect handling`,
    hint: (t) =>
      `Keep the simulation authoritative on the host/server and replicate only what clients need with ${t.net}; design for 100-200 ms latency from day one.`,
    integration: (t) => ({
      text: `Synchronise game state over the network with ${t.net}`,
      details: `Replicate player inputs and authoritative state at a fixed tick rate, interpolate remote entities, and handle late joins and disconnects. Measure bandwidth per player.`,
    }),
    flows: [
      { command: "JoinMatch", event: "PlayerJoinedMatch", readModel: "MatchLobby", by: "user" },
      {
        command: "SyncGameState",
        event: "GameStateSynced",
        readModel: "MatchState",
        by: "system",
        trigger: "every network tick",
      },
      {
        command: "FinishMatch",
        event: "MatchFinished",
        readModel: "MatchResults",
        by: "system",
        trigger: "a win condition is met",
      },
    ],
    benefit: "I can play with friends online",
    criteria: [
      "Given two players in a lobby, when both are ready, then the match starts for both within a few seconds",
      "Given a player disconnects, when they rejoin within a minute, then they return to the same match",
    ],
    practice: () =>
      "Keep the game simulation authoritative on the server or host and never trust client-side results.",
  },
  {
    id: "chat",
    match: /\b(chat|chats|chatting|messag\w*|inbox|direct messages?|dms?)\b/i,
    label: "Real-time chat",
    entity: "Message",
    strong: true,
    persist: true,
    weight: 9,
    risk: 1,
    riskName: "real-time messaging",
    accounts: true,
    nounVerb: "use",
    scope: (t) => `${t.realtime} messaging, history and unread counts`,
    hint: (t) =>
      `Persist each message before broadcasting it over ${t.realtime}, and fan out through a pub/sub channel so several server instances can share the load.`,
    integration: (t) => ({
      text: `Add the real-time channel with ${t.realtime} for message delivery and presence`,
      details: `Authenticate the connection with the user's session, subscribe each client to its conversations, and publish through a shared pub/sub (e.g. PostgreSQL LISTEN/NOTIFY or Redis) so multiple instances work. Reconnect with back-off and fetch missed messages.`,
    }),
    flows: [
      { command: "SendMessage", event: "MessageSent", readModel: "ConversationThread", by: "user" },
      { command: "MarkConversationRead", event: "ConversationRead", readModel: "UnreadCounts", by: "user" },
    ],
    benefit: "I can settle details with the other person without leaving the app",
    criteria: [
      "Given an open conversation, when I send a message, then the other participant sees it within two seconds",
      "Given I was offline, when I reconnect, then I see the messages I missed in order",
      "Given unread messages, when I open the conversation, then its unread count resets to zero",
    ],
    practice: () =>
      "Persist messages before broadcasting them and route real-time events through a shared pub/sub so the app scales past one instance.",
  },
  {
    id: "realtime",
    match: /\b(real[- ]?time|live updates?|websockets?|collaborat\w*|live)\b/i,
    label: "Live updates",
    entity: "Update",
    strong: false,
    persist: false,
    weight: 8,
    risk: 1,
    riskName: "real-time updates",
    accounts: true,
    nounVerb: "see",
    scope: (t) => `${t.realtime} push, reconnection and conflict handling`,
    hint: (t) =>
      `Push changes with ${t.realtime} after they are committed, and let clients refetch on reconnect so nothing is missed.`,
    integration: (t) => ({
      text: `Push live updates to clients with ${t.realtime} and handle reconnection`,
      details: `Publish an event after each committed change, subscribe clients by resource, and refetch state on reconnect. Throttle bursts so clients are not flooded.`,
    }),
    flows: [
      {
        command: "Broadcast{E}Change",
        event: "{E}Changed",
        readModel: "Live{E}View",
        by: "system",
        trigger: "a change is committed",
      },
    ],
    benefit: "I always see the latest state without refreshing",
    criteria: [
      "Given two open sessions, when one makes a change, then the other shows it within two seconds",
      "Given the connection drops, when it comes back, then the view catches up automatically",
    ],
  },
  {
    id: "ml",
    match:
      /\b(machine learning|ml|ai|predict\w*|recommend\w*|classif\w*|forecast\w*|llms?|gpt|nlp|neural|computer vision|image recognition|sentiment)\b/i,
    label: "Predictions",
    entity: "Prediction",
    strong: true,
    persist: true,
    weight: 9,
    risk: 1,
    riskName: "machine learning",
    accounts: false,
    nounVerb: "get",
    scope: (t) => `training data, a ${t.ml} model, evaluation and serving`,
    hint: (t) =>
      `Start with a simple, measurable baseline in ${t.ml} and track every experiment's data version, parameters and metrics before optimising.`,
    integration: (t) => ({
      text: `Train, evaluate and version the ${t.ml} model behind an inference interface`,
      details: `Split data by time or entity to avoid leakage, compare against a naive baseline, and save the model with its metrics and feature list. Expose predictions through one function or endpoint with input validation.`,
    }),
    flows: [
      { command: "RequestPrediction", event: "PredictionMade", readModel: "PredictionResults", by: "user" },
      {
        command: "RetrainModel",
        event: "ModelRetrained",
        readModel: "ModelMetrics",
        by: "system",
        trigger: "new labelled data arrives",
      },
    ],
    benefit: "I get useful suggestions without doing the analysis myself",
    criteria: [
      "Given enough history, when I ask for a prediction, then I get a result with a confidence indication",
      "Given the model is retrained, when its metrics fall below the baseline, then the previous model stays live",
    ],
    practice: () =>
      "Version data, code and models together and compare every model against a simple baseline before shipping it.",
  },
  {
    id: "integrations",
    match:
      /\b(integrat\w*|webhooks?|slack|google (sheets|calendar|drive)|outlook|zapier|third[- ]party|crm|erp|calendar sync|sync with|hubspot|salesforce|quickbooks|xero)\b/i,
    label: "Integrations",
    entity: "Integration",
    strong: true,
    persist: true,
    weight: 8,
    risk: 0.5,
    riskName: "third-party integrations",
    accounts: false,
    nounVerb: "connect",
    scope: () => "API clients, credentials, retries and mapping",
    hint: () =>
      "Wrap each third-party API in a small client with timeouts and retries, store credentials encrypted, and map external data explicitly.",
    integration: () => ({
      text: "Wrap the third-party API in a client with retries and rate limits",
      details:
        "Use the provider's official SDK or a typed HTTP client, handle 429/5xx with exponential back-off, store tokens encrypted and log request ids for support.",
    }),
    flows: [
      {
        command: "ConnectIntegration",
        event: "IntegrationConnected",
        readModel: "ConnectedIntegrations",
        by: "user",
      },
      {
        command: "RunImport",
        event: "ImportCompleted",
        readModel: "ImportHistory",
        by: "system",
        trigger: "a scheduled sync starts",
      },
    ],
    benefit: "my tools stay in sync without manual work",
    criteria: [
      "Given valid credentials, when I connect the service, then a test call succeeds and the connection is saved",
      "Given the remote API is down, when a sync runs, then it retries and reports the failure without data loss",
    ],
  },
  {
    id: "offline",
    match: /\b(offline|sync|syncs|syncing|synchroni[sz]\w*|across devices)\b/i,
    label: "Offline sync",
    entity: "SyncBatch",
    strong: true,
    persist: false,
    weight: 9,
    risk: 1,
    riskName: "offline sync",
    accounts: true,
    nounVerb: "use",
    scope: () => "local storage, a change queue and conflict resolution",
    hint: (t) =>
      t.documentStore
        ? `Enable ${t.database} offline persistence, write locally first and resolve conflicts with server timestamps per field.`
        : "Write changes to local storage first, replay them in order when online and resolve conflicts with server timestamps per field.",
    integration: (t) => ({
      text: "Implement the offline change queue and conflict resolution",
      details: t.documentStore
        ? `Turn on ${t.database} offline persistence, mark pending writes in the UI, and resolve conflicting edits with last-write-wins per field using server timestamps.`
        : "Record each local change in an outbox table, replay it in order when connectivity returns, and resolve conflicts with last-write-wins per field using server timestamps.",
    }),
    flows: [
      {
        command: "QueueLocalChange",
        event: "LocalChangeQueued",
        readModel: "PendingChanges",
        by: "system",
        trigger: "a change is made while offline",
      },
      {
        command: "SyncChanges",
        event: "ChangesSynced",
        readModel: "SyncStatus",
        by: "system",
        trigger: "connectivity returns",
      },
    ],
    benefit: "my data is available on every device, even without a connection",
    criteria: [
      "Given no connection, when I make a change, then it is saved locally and marked as pending",
      "Given pending changes, when the connection returns, then they sync without duplicates",
      "Given the same record changed on two devices, when both sync, then the newest change wins and nothing crashes",
    ],
    practice: () =>
      "Design for offline first: write locally, sync in the background and make every sync operation idempotent.",
  },
  {
    id: "admin",
    match: /\b(admins?|administrat\w*|moderat\w*|back[- ]?office|staff tools|manage users)\b/i,
    label: "Administration",
    entity: "ModerationCase",
    strong: true,
    persist: true,
    weight: 7,
    risk: 0,
    accounts: true,
    nounVerb: "use",
    actor: "admin",
    scope: () => "moderation queue, user management and key metrics",
    hint: () =>
      "Protect every admin route with a role check on the server and record an audit log entry for each moderation action.",
    flows: [
      { command: "ResolveReport", event: "ReportResolved", readModel: "ModerationQueue", by: "user" },
      { command: "SuspendAccount", event: "AccountSuspended", readModel: "AdminOverview", by: "user" },
    ],
    benefit: "the platform stays safe and well run",
    criteria: [
      "Given I am an admin, when I open the dashboard, then I see pending reports and key metrics",
      "Given I am not an admin, when I request an admin page or endpoint, then access is denied",
      "Given I take a moderation action, when it completes, then it is recorded in the audit log",
    ],
    practice: () =>
      "Check roles on the server for every admin action and keep an audit log of who changed what.",
  },
  {
    id: "tenancy",
    match:
      /\b(multi[- ]?tenan\w*|tenants?|organi[sz]ations? (accounts?|workspaces?)|workspaces?|team (accounts?|workspaces?|management)|roles? and permissions|user roles|permissions?|rbac|invit\w* (team\w*|colleagues|members|co-?workers|staff))\b/i,
    label: "Teams and permissions",
    entity: "Workspace",
    strong: true,
    persist: true,
    weight: 8,
    risk: 1,
    riskName: "multi-tenancy",
    accounts: true,
    nounVerb: "manage",
    scope: () => "workspaces, invitations, roles and data isolation",
    hint: () =>
      "Scope every query by workspace id in one place (middleware or row-level security) so data can never leak between tenants.",
    integration: () => ({
      text: "Enforce tenant isolation and role checks on every query",
      details:
        "Add a workspace id to each tenant-owned table, apply it in a single data-access layer or row-level security policy, and test that one tenant can never read another's data.",
    }),
    flows: [
      { command: "CreateWorkspace", event: "WorkspaceCreated", readModel: "WorkspaceMembers", by: "user" },
      { command: "InviteMember", event: "MemberInvited", readModel: "WorkspaceMembers", by: "user" },
      { command: "ChangeMemberRole", event: "MemberRoleChanged", readModel: "WorkspaceMembers", by: "user" },
    ],
    benefit: "my team works together while our data stays private",
    criteria: [
      "Given I own a workspace, when I invite a colleague by e-mail, then they join with the role I chose",
      "Given two workspaces, when a member of one lists records, then none from the other appear",
    ],
    practice: () =>
      "Enforce tenant isolation centrally (row-level security or one data-access layer), never per query.",
  },
  {
    id: "bookings",
    match:
      /\b(book|booking|bookings|reserv\w*|appointments?|schedul\w*|calendars?|availability|time ?slots?)\b/i,
    label: "Bookings",
    entity: "Booking",
    strong: true,
    persist: true,
    weight: 8,
    risk: 0.5,
    riskName: "scheduling",
    accounts: true,
    nounVerb: "make",
    scope: () => "availability, double-booking prevention and confirmations",
    hint: () =>
      "Store times in UTC with the user's time zone, and prevent double bookings with a unique constraint or exclusion constraint on the slot.",
    integration: () => ({
      text: "Prevent double bookings and handle time zones correctly",
      details:
        "Guard slots with a database constraint (or a transaction with row locks), store instants in UTC and render in the viewer's time zone, and send calendar (.ics) invites on confirmation.",
    }),
    flows: [
      { command: "RequestBooking", event: "BookingRequested", readModel: "AvailabilityCalendar", by: "user" },
      { command: "ConfirmBooking", event: "BookingConfirmed", readModel: "UpcomingBookings", by: "user" },
      { command: "CancelBooking", event: "BookingCancelled", readModel: "UpcomingBookings", by: "user" },
    ],
    benefit: "I can reserve a time that suits me without back-and-forth",
    criteria: [
      "Given a free slot, when I book it, then it is reserved for me and disappears for others",
      "Given two people book the same slot at once, when both submit, then only one booking succeeds",
      "Given a booking, when I cancel it, then the slot becomes available again",
    ],
  },
  {
    id: "maps",
    match: /\b(maps?|locations?|gps|geo\w*|nearby|directions|distance)\b/i,
    label: "Maps and location",
    entity: "Place",
    strong: true,
    persist: true,
    weight: 8,
    risk: 0.5,
    riskName: "location services",
    accounts: false,
    nounVerb: "see",
    scope: () => "a map view, geocoding and location permissions",
    hint: () =>
      "Ask for location permission only when needed, geocode addresses server-side and index coordinates for nearby queries.",
    integration: () => ({
      text: "Integrate the map SDK, geocoding and location permissions",
      details:
        "Render places with a map SDK (e.g. Mapbox or Google Maps), geocode addresses once and store coordinates, and query nearby places with a spatial index (PostGIS or geohashes).",
    }),
    flows: [
      { command: "ShareLocation", event: "LocationShared", readModel: "NearbyPlaces", by: "user" },
      { command: "SavePlace", event: "PlaceSaved", readModel: "SavedPlaces", by: "user" },
    ],
    benefit: "I can find what is close to me",
    criteria: [
      "Given location permission, when I open the map, then nearby places appear around my position",
      "Given I deny location permission, when I open the map, then I can still search by address",
    ],
  },
  {
    id: "notifications",
    match: /\b(notif\w*|remind\w*|alerts?|alerting|e-?mails?|sms|push|warn\w*)\b/i,
    label: "Notifications",
    entity: "Notification",
    strong: false,
    persist: true,
    weight: 7,
    risk: 0.5,
    riskName: "notifications",
    accounts: false,
    nounVerb: "receive",
    scope: (t) =>
      t.family === "iot"
        ? "thresholds, rate limiting and delivery over the network"
        : t.family === "mobile"
          ? `${t.push}, scheduling and user preferences`
          : "scheduling, delivery channels and preferences",
    hint: (t) =>
      t.family === "mobile"
        ? `Schedule local notifications for time-based reminders and use ${t.push} for server-triggered ones; respect the user's quiet hours.`
        : t.family === "iot"
          ? "Trigger alerts on thresholds with hysteresis and a cooldown so a noisy sensor cannot flood the recipient."
          : "Send notifications from a background job queue with retries, and let users choose channels and frequency.",
    integration: (t) => ({
      text:
        t.family === "mobile"
          ? `Deliver push notifications with ${t.push} and schedule local reminders`
          : t.family === "iot"
            ? "Send alert messages over the network with retries and a cooldown"
            : "Send e-mail and push notifications from a background job queue",
      details:
        t.family === "mobile"
          ? `Register device tokens after sign-in, send server-triggered messages through ${t.push}, and schedule repeating local notifications for reminders. Handle permission denial gracefully.`
          : t.family === "iot"
            ? "Publish alerts via MQTT or an HTTPS push service (e.g. ntfy or Telegram), queue them while offline, and suppress repeats with a cooldown."
            : "Enqueue notifications in a job table or queue, send through an e-mail provider and web push, retry with back-off and record delivery status.",
    }),
    flows: [
      { command: "Schedule{E}", event: "{E}Scheduled", readModel: "{E}Settings", by: "user" },
      {
        command: "Send{E}",
        event: "{E}Sent",
        readModel: "{E}Log",
        by: "system",
        trigger: "the scheduled time or a threshold is reached",
      },
    ],
    benefit: "I never miss something that needs my attention",
    criteria: [
      "Given a due reminder or crossed threshold, when the time comes, then a notification is delivered once",
      "Given I turned a notification type off, when it would fire, then nothing is sent",
    ],
  },
  {
    id: "connectivity",
    match:
      /\b(wi-?fi|mqtt|bluetooth|ble|lora\w*|lte|cellular|over the network|remote(ly)?|cloud dashboard)\b/i,
    label: "Connectivity",
    entity: "Telemetry",
    strong: true,
    persist: false,
    weight: 8,
    risk: 0.5,
    riskName: "wireless connectivity",
    accounts: false,
    nounVerb: "use",
    scope: () => "connection management, MQTT publishing and reconnection",
    hint: () =>
      "Keep the control loop independent of the network: buffer telemetry while offline and reconnect with exponential back-off.",
    integration: () => ({
      text: "Publish telemetry over MQTT with reconnects and back-off",
      details:
        "Connect with TLS where the board allows, publish to topics like device/<id>/telemetry with retained status messages, and buffer readings while the connection is down.",
    }),
    flows: [
      {
        command: "PublishTelemetry",
        event: "TelemetryPublished",
        readModel: "RemoteDashboard",
        by: "system",
        trigger: "every reporting interval",
      },
      {
        command: "ReconnectNetwork",
        event: "NetworkReconnected",
        readModel: "ConnectionStatus",
        by: "system",
        trigger: "the connection drops",
      },
    ],
    benefit: "I can check the device from anywhere",
    criteria: [
      "Given the network is available, when a reading is taken, then it is published within the reporting interval",
      "Given the network drops, when it returns, then buffered readings are sent and the device keeps working meanwhile",
    ],
  },
  {
    id: "uploads",
    match: /\b(upload\w*|photos?|images?|pictures?|videos?|files?|attachments?|media|documents?|avatars?)\b/i,
    label: "Media uploads",
    entity: "File",
    strong: false,
    persist: true,
    weight: 7,
    risk: 0.5,
    riskName: "file storage",
    accounts: true,
    nounVerb: "upload",
    scope: () => "object storage, signed URLs, size limits and thumbnails",
    hint: () =>
      "Upload straight to S3-compatible object storage with pre-signed URLs, validate type and size, and generate thumbnails in a background job.",
    integration: () => ({
      text: "Store uploads in S3-compatible object storage with signed URLs",
      details:
        "Issue short-lived pre-signed upload URLs, validate MIME type and size, keep only the object key in the database, and generate thumbnails asynchronously.",
    }),
    flows: [
      { command: "Upload{E}", event: "{E}Uploaded", readModel: "{E}Gallery", by: "user" },
      { command: "Delete{E}", event: "{E}Deleted", readModel: "{E}Gallery", by: "user" },
    ],
    benefit: "I can share pictures and files alongside my content",
    criteria: [
      "Given a supported file under the size limit, when I upload it, then it appears with a preview",
      "Given an unsupported or oversized file, when I upload it, then I see a clear error and nothing is stored",
    ],
  },
  {
    id: "search",
    match: /\b(search\w*|filter\w*|sort\w*|browse|browsing|discover\w*|find|finding)\b/i,
    label: "Search",
    entity: "SearchQuery",
    strong: true,
    persist: false,
    weight: 7,
    risk: 0,
    accounts: false,
    nounVerb: "use",
    scope: () => "indexed queries, filters, sorting and a results view",
    hint: (t) =>
      `Back search with ${searchTech(t)} and paginate results with a cursor so large result sets stay fast.`,
    integration: (t) => ({
      text: `Add full-text search with ${searchTech(t)}`,
      details: `Index the searchable fields, rank by relevance with recency as a tie-breaker, and keep the index updated on every write. Debounce queries in the UI.`,
    }),
    flows: [
      { command: "RunSearch", event: "SearchPerformed", readModel: "SearchResults", by: "user" },
      { command: "SaveSearch", event: "SearchSaved", readModel: "SavedSearches", by: "user" },
    ],
    benefit: "I can find what I need quickly",
    criteria: [
      "Given matching items, when I search by keyword, then relevant results appear within a second",
      "Given active filters, when I change the sort order, then the filters are kept",
      "Given no matches, when I search, then I see a helpful empty state",
    ],
  },
  {
    id: "orders",
    match: /\b(carts?|orders?|ordering|purchas\w*|buy|buys|buying|shopping)\b/i,
    label: "Cart and orders",
    entity: "Order",
    strong: true,
    persist: true,
    weight: 8,
    risk: 0,
    accounts: true,
    nounVerb: "place",
    scope: () => "cart, order placement, stock checks and order history",
    hint: () =>
      "Recalculate prices and stock on the server when the order is placed, and keep order lines immutable once paid.",
    flows: [
      { command: "AddItemToCart", event: "ItemAddedToCart", readModel: "CartSummary", by: "user" },
      { command: "PlaceOrder", event: "OrderPlaced", readModel: "OrderHistory", by: "user" },
      {
        command: "ShipOrder",
        event: "OrderShipped",
        readModel: "OrderHistory",
        by: "system",
        trigger: "the order is paid and packed",
      },
    ],
    benefit: "I can buy several items in one go and track my orders",
    criteria: [
      "Given items in my cart, when I place the order, then totals and stock are checked on the server",
      "Given an item sold out meanwhile, when I place the order, then I am told before paying",
      "Given past orders, when I open my order history, then I see their status",
    ],
  },
  {
    id: "listings",
    match:
      /\b(listings?|catalog\w*|products?|inventory|sell|sells|selling|sellers?|vendors?|stock)\b|^((sellers?|vendors?|hosts?|users?) )?list\b/i,
    families: ["web", "mobile", "api", "desktop"],
    label: "Listings",
    entity: "Listing",
    strong: true,
    persist: true,
    weight: 7,
    risk: 0,
    accounts: true,
    nounVerb: "browse",
    scope: () => "listing model, create/edit forms, photos and publishing",
    hint: () =>
      "Give listings a draft/published/archived status, and validate prices and quantities on the server as well as in the form.",
    flows: [
      { command: "Create{E}", event: "{E}Created", readModel: "{E}Catalogue", by: "user" },
      { command: "Update{E}", event: "{E}Updated", readModel: "{E}Details", by: "user" },
      { command: "Archive{E}", event: "{E}Archived", readModel: "{E}Catalogue", by: "user" },
    ],
    benefit: "what I offer is visible to the right people",
    criteria: [
      "Given a complete form, when I publish a listing, then it appears in the catalogue",
      "Given a listing I own, when I edit it, then the changes are visible immediately",
      "Given a listing I do not own, when I try to edit it, then access is denied",
    ],
  },
  {
    id: "reviews",
    match: /\b(reviews?|reviewing|ratings?|rate|comments?|commenting|feedback|testimonials?|stars?)\b/i,
    label: "Reviews and ratings",
    entity: "Review",
    strong: false,
    persist: true,
    weight: 6,
    risk: 0,
    accounts: true,
    nounVerb: "leave",
    scope: () => "submission rules, average ratings and moderation",
    hint: () =>
      "Allow one review per user and item (unique constraint), keep a cached average rating, and send new reviews through moderation.",
    flows: [
      { command: "Submit{E}", event: "{E}Submitted", readModel: "{E}Summary", by: "user" },
      { command: "Moderate{E}", event: "{E}Moderated", readModel: "ModerationQueue", by: "user" },
    ],
    benefit: "I can judge quality before I commit",
    criteria: [
      "Given I used an item, when I submit a rating and comment, then it appears and the average updates",
      "Given I already reviewed an item, when I review it again, then my previous review is updated instead",
    ],
  },
  {
    id: "leaderboards",
    match: /\b(leaderboards?|high ?scores?|rankings?)\b/i,
    families: ["game"],
    label: "Leaderboards",
    entity: "Score",
    strong: true,
    persist: true,
    weight: 7,
    risk: 0.5,
    riskName: "online services",
    accounts: false,
    nounVerb: "compete on",
    scope: () => "score submission, anti-cheat checks and ranking views",
    hint: () =>
      "Submit scores through a small backend (or a service such as the platform's leaderboard API) and validate them server-side to limit cheating.",
    integration: () => ({
      text: "Submit and fetch scores from an online leaderboard service",
      details:
        "Use the platform's leaderboard API or a small HTTPS backend; sign submissions, reject impossible scores and cache the last ranking for offline play.",
    }),
    flows: [
      {
        command: "SubmitScore",
        event: "ScoreSubmitted",
        readModel: "Leaderboard",
        by: "system",
        trigger: "a run ends",
      },
      { command: "OpenLeaderboard", event: "LeaderboardViewed", readModel: "Leaderboard", by: "user" },
    ],
    benefit: "I can compare my best runs with other players",
    criteria: [
      "Given a finished run, when the score is submitted, then it appears in the leaderboard within a minute",
      "Given an impossible score, when it is submitted, then the server rejects it",
    ],
  },
  {
    id: "social",
    match:
      /\b(share|shares|sharing|friends?|follow\w*|social|invit\w*|community|leaderboards?|likes?|feeds?|achievements?|badges?)\b/i,
    label: "Social sharing",
    entity: "Post",
    strong: false,
    persist: true,
    weight: 7,
    risk: 0.5,
    riskName: "social features",
    accounts: true,
    nounVerb: "use",
    scope: () => "friend connections, sharing, privacy settings and a feed",
    hint: () =>
      "Make sharing opt-in with per-item privacy, and build the feed from a fan-out table rather than heavy joins.",
    flows: [
      { command: "Share{E}", event: "{E}Shared", readModel: "ActivityFeed", by: "user" },
      { command: "InviteFriend", event: "FriendInvited", readModel: "FriendList", by: "user" },
    ],
    benefit: "I stay motivated together with friends",
    criteria: [
      "Given a friend connection, when I share something, then it appears in their feed",
      "Given an item marked private, when friends view my profile, then it is not shown",
    ],
  },
  {
    id: "analytics",
    match:
      /\b(charts?|graphs?|analytics|reports?|reporting|statistics|stats|insights?|visuali[sz]\w*|dashboards?|streaks?|progress|trends?|metrics?|kpis?)\b/i,
    label: "Analytics",
    entity: "Metric",
    strong: false,
    persist: true,
    weight: 7,
    risk: 0,
    accounts: false,
    nounVerb: "see",
    scope: (t) =>
      t.family === "data"
        ? `aggregations and ${t.viz} visuals`
        : "aggregations, charts and date-range filters",
    hint: () =>
      "Compute aggregates incrementally (or in a nightly job) instead of scanning raw history on every view, and show date ranges explicitly.",
    flows: [
      {
        command: "Recalculate{E}",
        event: "{E}Recalculated",
        readModel: "{E}Dashboard",
        by: "system",
        trigger: "new data is recorded",
      },
      { command: "Export{E}Report", event: "{E}ReportExported", readModel: "{E}Dashboard", by: "user" },
    ],
    benefit: "I can see how things are going at a glance",
    criteria: [
      "Given recorded history, when I open the charts, then I see totals and trends for the chosen period",
      "Given no data yet, when I open the charts, then I see an explanatory empty state",
    ],
  },
  {
    id: "content",
    match: /\b(blog\w*|posts?|articles?|pages?|publish\w*|editor\w*|newsletters?|content)\b/i,
    label: "Content publishing",
    entity: "Article",
    strong: false,
    persist: true,
    weight: 6,
    risk: 0,
    accounts: true,
    nounVerb: "publish",
    scope: () => "drafts, rich-text editing, scheduling and publishing",
    hint: () => "Keep a draft/published status with revision history, and sanitise rich text on save.",
    flows: [
      { command: "Draft{E}", event: "{E}Drafted", readModel: "{E}Drafts", by: "user" },
      { command: "Publish{E}", event: "{E}Published", readModel: "Published{Es}", by: "user" },
    ],
    benefit: "readers always see polished, up-to-date content",
    criteria: [
      "Given a draft, when I publish it, then it appears on the public site",
      "Given a scheduled post, when its time comes, then it is published automatically",
    ],
  },
  {
    id: "display",
    match: /\b(lcd|oled|e-?ink|displays?|screens?|leds?)\b/i,
    families: ["iot"],
    label: "Local display",
    entity: "DisplayPage",
    strong: true,
    persist: false,
    weight: 5,
    risk: 0,
    accounts: false,
    nounVerb: "read",
    scope: () => "display driver, page layout and refresh timing",
    hint: () => "Redraw only changed regions on a timer and keep display code out of the sensing loop.",
    flows: [
      {
        command: "RefreshDisplay",
        event: "DisplayRefreshed",
        readModel: "DisplayPages",
        by: "system",
        trigger: "every refresh interval",
      },
      { command: "SwitchDisplayPage", event: "DisplayPageSwitched", readModel: "DisplayPages", by: "user" },
    ],
    benefit: "I can read the current state at the device itself",
    criteria: [
      "Given fresh readings, when the refresh interval passes, then the display shows the new values",
      "Given a sensor fault, when the display refreshes, then it shows an error marker instead of stale values",
    ],
  },
  {
    id: "sensors",
    match:
      /\b(sensors?|temperature|humidity|moisture|pressure|readings?|measur\w*|monitor\w*|air quality|light levels?|co2)\b/i,
    label: "Sensor readings",
    entity: "SensorReading",
    strong: true,
    persist: true,
    weight: 7,
    risk: 0.5,
    riskName: "sensor hardware",
    accounts: false,
    nounVerb: "see",
    scope: (t) => `${t.language} drivers, sampling, filtering and calibration`,
    hint: () =>
      "Sample on a non-blocking timer, smooth noisy values with a moving average, and flag readings outside the sensor's physical range.",
    flows: [
      {
        command: "SampleSensors",
        event: "SensorReadingRecorded",
        readModel: "LatestReadings",
        by: "system",
        trigger: "every sampling interval",
      },
      { command: "CalibrateSensor", event: "SensorCalibrated", readModel: "SensorSettings", by: "user" },
    ],
    benefit: "I always know the current conditions",
    criteria: [
      "Given the device is running, when the sampling interval passes, then every sensor reports a fresh value",
      "Given a disconnected sensor, when it is sampled, then the fault is reported instead of a bogus value",
    ],
  },
  {
    id: "actuators",
    match:
      /\b(control\w*|pumps?|fans?|valves?|relays?|motors?|servos?|lights?|lighting|switch\w*|actuat\w*|water(ing)?|heaters?|irrigat\w*|vents?)\b/i,
    families: ["iot", "automation"],
    label: "Actuator control",
    entity: "Actuator",
    strong: true,
    persist: false,
    weight: 7,
    risk: 0.5,
    riskName: "actuator control",
    accounts: false,
    nounVerb: "control",
    scope: () => "relay drivers, threshold rules with hysteresis and safe defaults",
    hint: () =>
      "Drive loads through relays or MOSFETs with flyback protection, use hysteresis so outputs do not chatter, and default to a safe state on reset.",
    flows: [
      {
        command: "SwitchActuator",
        event: "ActuatorSwitched",
        readModel: "ActuatorStates",
        by: "system",
        trigger: "a threshold is crossed",
      },
      { command: "OverrideActuator", event: "ActuatorOverridden", readModel: "ActuatorStates", by: "user" },
    ],
    benefit: "conditions are corrected automatically",
    criteria: [
      "Given a reading beyond its threshold, when the control loop runs, then the matching output switches on",
      "Given the reading returns inside the hysteresis band, when the loop runs, then the output switches off once",
      "Given a reset or fault, when the device restarts, then all outputs start in their safe state",
    ],
  },
  {
    id: "logging",
    match: /\b(logs?|logging|sd cards?|data logg\w*|record data|store data|csv|history)\b/i,
    families: ["iot", "automation", "data"],
    label: "Data logging",
    entity: "LogEntry",
    strong: true,
    persist: true,
    weight: 6,
    risk: 0,
    accounts: false,
    nounVerb: "keep",
    scope: () => "log format, rotation, timestamps and export",
    hint: () =>
      "Append timestamped CSV lines with a header, flush regularly, rotate files by day, and survive power loss without corrupting earlier data.",
    flows: [
      {
        command: "AppendLogEntry",
        event: "LogEntryAppended",
        readModel: "ReadingHistory",
        by: "system",
        trigger: "a new reading is recorded",
      },
      { command: "ExportLog", event: "LogExported", readModel: "ReadingHistory", by: "user" },
    ],
    benefit: "I can analyse the history later",
    criteria: [
      "Given the device is running, when a reading is taken, then a timestamped line is appended to the log",
      "Given the storage is full or missing, when logging fails, then the device keeps running and reports it",
    ],
  },
  {
    id: "scraping",
    match: /\b(scrap\w*|crawl\w*|extract\w*|harvest\w*)\b/i,
    label: "Scraping",
    entity: "Page",
    strong: false,
    persist: true,
    weight: 7,
    risk: 0.5,
    riskName: "scraping fragile third-party pages",
    accounts: false,
    nounVerb: "collect",
    scope: (t) => `${t.lib} navigation, extraction and politeness limits`,
    hint: () =>
      "Respect robots.txt and rate limits, use stable selectors (data attributes, roles) and save raw HTML so parsing can be re-run.",
    flows: [
      {
        command: "Scrape{E}",
        event: "{E}Scraped",
        readModel: "Scraped{Es}",
        by: "system",
        trigger: "the scheduled run starts",
      },
    ],
    benefit: "the data arrives without manual copy-and-paste",
    criteria: [
      "Given the target site is reachable, when the run completes, then every expected record is extracted",
      "Given the page layout changed, when extraction fails, then the run reports which selector broke",
    ],
  },
  {
    id: "progression",
    match: /\b(save|saves|saving|unlock\w*|upgrades?|experience points|xp|skill trees?)\b/i,
    families: ["game"],
    label: "Progression",
    entity: "Unlock",
    strong: false,
    persist: true,
    weight: 6,
    risk: 0,
    accounts: false,
    nounVerb: "keep",
    scope: (t) => `${t.save}, unlocks and balancing`,
    hint: (t) => `Version the save format stored in ${t.save} so old saves keep loading after updates.`,
    flows: [
      {
        command: "SaveProgress",
        event: "ProgressSaved",
        readModel: "SaveSlots",
        by: "system",
        trigger: "a checkpoint is reached",
      },
      {
        command: "Unlock{E}",
        event: "{E}Unlocked",
        readModel: "Unlocked{Es}",
        by: "system",
        trigger: "a goal is reached",
      },
    ],
    benefit: "my progress is kept and rewarded",
    criteria: [
      "Given progress in a session, when I quit and restart, then I continue from my last checkpoint",
      "Given an old save file, when I load it after an update, then it still works",
    ],
  },
  {
    id: "gameplay",
    match:
      /\b(levels?|enem(y|ies)|boss\w*|combat|weapons?|power-?ups?|quests?|puzzles?|obstacles?|jump\w*|shoot\w*|platform\w*|waves?)\b/i,
    families: ["game"],
    label: "Gameplay",
    entity: "Level",
    strong: false,
    persist: false,
    weight: 7,
    risk: 0,
    accounts: false,
    nounVerb: "play",
    scope: (t) => `${t.scene}, rules and tuning`,
    hint: (t) =>
      `Drive behaviour from data (${t.language} resources or ScriptableObject-style assets) so designers can tune values without code changes.`,
    flows: [
      { command: "Start{E}", event: "{E}Started", readModel: "{E}Progress", by: "user" },
      {
        command: "Complete{E}",
        event: "{E}Completed",
        readModel: "{E}Progress",
        by: "system",
        trigger: "the goal is reached",
      },
    ],
    benefit: "the game stays challenging and fun",
    criteria: [
      "Given a new player, when they start, then the first challenge can be cleared within a few minutes",
      "Given a completed challenge, when the next one starts, then difficulty increases noticeably",
    ],
  },
  {
    id: "auth",
    match:
      /\b(accounts?|log ?ins?|log-in|sign[- ]?(in|up|on)|signups?|regist\w*|auth\w*|profiles?|passwords?|oauth|sso|two[- ]factor|2fa)\b/i,
    label: "Accounts",
    entity: "Account",
    strong: true,
    persist: true,
    weight: 7,
    risk: 0.5,
    riskName: "accounts and security",
    accounts: true,
    nounVerb: "use",
    scope: (t) => `sign-up, sign-in and sessions with ${t.auth}`,
    hint: (t) => `Use ${t.auth}; never store plain passwords and rate-limit sign-in attempts.`,
    flows: [
      { command: "RegisterAccount", event: "AccountRegistered", readModel: "UserProfile", by: "user" },
      { command: "SignIn", event: "UserSignedIn", readModel: "ActiveSessions", by: "user" },
    ],
    benefit: "my data is private and available wherever I sign in",
    criteria: [
      "Given a new e-mail address, when I sign up, then my account is created and I am signed in",
      "Given wrong credentials, when I sign in, then I see a generic error and my attempts are rate-limited",
      "Given I sign out, when I press back, then protected pages are no longer shown",
    ],
    practice: () =>
      "Hash passwords with argon2id or bcrypt, use HTTP-only SameSite cookies or short-lived tokens, and rate-limit sign-in attempts.",
  },
];

export const AUTH_TOPIC = TOPICS.find((t) => t.id === "auth")!;

export function topicsFor(family: Family): readonly Topic[] {
  return TOPICS.filter((t) => !t.families || t.families.includes(family));
}

/** The first topic (in table order) whose pattern matches; table order encodes precedence. */
export function detectTopic(text: string, family: Family): Topic | null {
  for (const topic of topicsFor(family)) if (topic.match.test(text)) return topic;
  return null;
}

export function allTopics(text: string, family: Family): Topic[] {
  return topicsFor(family).filter((t) => t.match.test(text));
}

export function isUserFacing(t: Tech): boolean {
  return userFacing(t);
}

export function searchTech(t: Tech): string {
  const db = t.stack.database.toLowerCase();
  if (db.includes("postgres")) return "PostgreSQL full-text search (tsvector and a GIN index)";
  if (db.includes("mongo")) return "MongoDB text indexes or Atlas Search";
  if (db.includes("mysql")) return "MySQL FULLTEXT indexes";
  if (db.includes("firestore")) return "a Typesense or Algolia index synced from Firestore";
  if (db.includes("sql server")) return "SQL Server full-text indexes";
  if (db.includes("sqlite") || db.includes("room") || db.includes("swiftdata")) return "SQLite FTS5";
  return "an indexed search query";
}
