export { AttachCluster } from './AttachCluster.js';
export { ClusterDetail } from './ClusterDetail.js';
export { ClusterList } from './ClusterList.js';
