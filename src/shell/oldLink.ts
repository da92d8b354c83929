/** sessionStorage flag: this visit came through an old (hash) link; the bookmark notice is pending. */
export const OLD_LINK_FLAG = 'pp.oldLink';
