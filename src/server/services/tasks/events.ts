/**
 * Which events a client may see: of one task tree (`rootTaskId`), or all of its own and of its teams'
 * plans (`teamIds`, issue 41). `planTeam`: the tree's team when the client sees it only as a member, so
 * the channel ends when they leave the team.
 */
export type TaskEventFilter = {
  userId: string;
  rootTaskId?: string;
  teamIds?: readonly string[];
  planTeam?: string | null;
};
