package live

// Kind names what changed. Every kind a writer publishes is one of these
// constants, so a subscriber can map each one explicitly (the kiosk stream
// re-renders only the widgets a kind touches).
type Kind string

// Household data, on the member's topic (Data nil) and the household topic
// (Data the member id).
const (
	KindWeight  Kind = "weight"
	KindMeal    Kind = "meal"
	KindWorkout Kind = "workout"
	KindScan    Kind = "scan"
	// KindImport: records of several kinds arrived at once (a file import).
	KindImport Kind = "import"
	// KindMember: a member was added or their profile, targets or goals
	// changed (also on the admin topic).
	KindMember Kind = "member"
	// KindPrivacy: a member's "private figures" flag changed.
	KindPrivacy Kind = "privacy"
	// KindSettings: the household settings the screens follow changed
	// (Admin → Household: the night schedule), on the household topic.
	KindSettings Kind = "settings"
)

// The coach's day, on the member's topic.
const (
	// KindDashboard: today's document was written.
	KindDashboard Kind = "dashboard"
	// KindAnswer: a prompt was answered (Data the prompt id).
	KindAnswer Kind = "answer"
	// KindVoice: a voice memo was stored or transcribed.
	KindVoice Kind = "voice"
	// KindConsumed: a content item was finished (Data the content id).
	KindConsumed Kind = "consumed"
	// KindPlaylist: the member's playlist changed.
	KindPlaylist Kind = "playlist"
	// KindNotify: an agent's message for the member's screens.
	KindNotify Kind = "notify"
	// KindProgram: the member's program changed (paused, resumed, switched,
	// restarted, moved to a day, an item substituted, the pace changed).
	KindProgram Kind = "program"
	// KindMessage: a message from the coach arrived for the member, or one
	// was dismissed (also on the admin topic, Data the member id).
	KindMessage Kind = "message"
)

// Agents and schedules, for the admin pages.
const (
	// KindRun: an agent run's progress (Data an agent.RunEvent), on the
	// admin topic and the member's topic.
	KindRun Kind = "run"
	// KindTask: a scheduled task changed (admin topic).
	KindTask Kind = "task"
	// KindTodo: the coach's to-do list changed (admin topic).
	KindTodo Kind = "todo"
	// KindBackup: a backup's progress or outcome (admin topic; the
	// outcome also on the household topic for the kiosk's admin badge).
	KindBackup Kind = "backup"
	// KindWorkflow: a workflow run's progress (Data a workflow.Event), on
	// the admin topic, and on the member's topic for a workflow that can
	// ask the member (a step waiting for their answer shows on their
	// dashboard).
	KindWorkflow Kind = "workflow"
	// KindChat: a chat turn started, called a tool or is done (Data an
	// agent.ChatUpdate), on the member's topic and the admin topic; the
	// answer's text streams from agent.Orchestrator.ChatStream.
	KindChat Kind = "chat"
	// KindModel: a model connection check progressed or what Hearth learned
	// about a model endpoint changed (admin topic).
	KindModel Kind = "model"
	// KindEval: an eval suite run's progress or outcome (admin topic).
	KindEval Kind = "eval"
	// KindLayout: a screen layout, the default layout or a screen's
	// layout changed (household topic; Data the layout's slug).
	KindLayout Kind = "layout"
	// KindProposal: an agent's proposed change to an outside system was
	// confirmed, applied or discarded (admin topic; Admin → Curator).
	KindProposal Kind = "proposal"
	// KindPolicy: the household's policy decided a call, or a held call
	// was confirmed, refused or timed out (admin topic: Admin → Policies;
	// the asking member's topic: the home sheet's confirmations; Data the
	// member's id).
	KindPolicy Kind = "policy"
)

// Kinds lists every kind, for subscribers that must map each one (tests
// check the kiosk's table against it).
var Kinds = []Kind{KindWeight, KindMeal, KindWorkout, KindScan, KindImport, KindMember, KindPrivacy, KindSettings,
	KindDashboard, KindAnswer, KindVoice, KindConsumed, KindPlaylist, KindNotify, KindProgram, KindMessage,
	KindRun, KindTask, KindTodo, KindBackup, KindModel, KindEval, KindWorkflow, KindChat, KindLayout, KindProposal, KindPolicy}
