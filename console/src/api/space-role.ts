import { useMe, useSpaceMembers } from './queries';
import { roleInSpace, spaceAccess, type MeAnswer, type SpaceAccess } from './space-access';

/**
 * What the signed-in user may do in space `sid`: from two cached queries (`me`, and the
 * space's members unless they own the account), never a request of its own per row or cell.
 * While they load, nothing may be changed (`isPending`): controls appear, never vanish.
 */
export function useSpaceRole(sid: number): SpaceAccess & { isPending: boolean } {
  const me = useMe();
  const meAnswer = me.data as MeAnswer | null | undefined;
  const members = useSpaceMembers(sid, meAnswer?.is_owner === false);
  const role = roleInSpace(meAnswer, members.data);
  return { ...spaceAccess(role ?? null), isPending: role === undefined && !members.isError && !me.isError };
}
